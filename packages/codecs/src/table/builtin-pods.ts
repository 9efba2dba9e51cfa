/**
 * The Pod column set: Ready, Status and Restarts computed as upstream's `printPod` does them
 * (pkg/printers/internalversion/printers.go), and the pod's table row conditions.
 */
import { ageColumn, ageOf, arr, col, convertor, nameOf, num, type Obj, obj, str } from './builtin-cells.js';
import { translateTimestampSince } from './human-duration.js';
import { nameColumn } from './table.js';
import type { TableConvertor } from './types.js';

const isRestartable = (c: Obj | undefined): boolean => c?.restartPolicy === 'Always';
const later = (a: string, b: unknown): string =>
  typeof b === 'string' && (a === '' || Date.parse(b) > Date.parse(a)) ? b : a;

/** Ready, Status, Restarts exactly as upstream's `printPod` computes them. */
function podSummary(pod: Obj, now: number): { ready: string; status: string; restarts: string } {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const initSpecs = arr(spec.initContainers);
  let total = arr(spec.containers).length;
  let readyCount = 0;
  let restarts = 0;
  let restartableRestarts = 0;
  let lastRestart = '';
  let lastRestartableRestart = '';
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of arr(status.conditions))
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  const initByName = new Map<string, Obj>();
  for (const c of initSpecs) {
    initByName.set(str(c.name), c);
    if (isRestartable(c)) total++;
  }
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i] as Obj;
    const state = obj(cs.state);
    const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
    const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
    const lastTerminated = obj(cs.lastState).terminated;
    restarts += num(cs.restartCount);
    if (lastTerminated !== undefined) lastRestart = later(lastRestart, obj(lastTerminated).finishedAt);
    const restartable = isRestartable(initByName.get(str(cs.name)));
    if (restartable) {
      restartableRestarts += num(cs.restartCount);
      if (lastTerminated !== undefined)
        lastRestartableRestart = later(lastRestartableRestart, obj(lastTerminated).finishedAt);
    }
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) readyCount++;
      continue;
    }
    if (terminated) {
      if (!str(terminated.reason))
        reason =
          num(terminated.signal) !== 0
            ? `Init:Signal:${num(terminated.signal)}`
            : `Init:ExitCode:${num(terminated.exitCode)}`;
      else reason = `Init:${str(terminated.reason)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }
  const initializedTrue = arr(status.conditions).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i] as Obj;
      const state = obj(cs.state);
      restarts += num(cs.restartCount);
      const lastTerminated = obj(cs.lastState).terminated;
      if (lastTerminated !== undefined) lastRestart = later(lastRestart, obj(lastTerminated).finishedAt);
      const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
      const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminated)
        reason =
          num(terminated.signal) !== 0
            ? `Signal:${num(terminated.signal)}`
            : `ExitCode:${num(terminated.exitCode)}`;
      else if (cs.ready === true && state.running !== undefined) {
        hasRunning = true;
        readyCount++;
      }
    }
    if (reason === 'Completed' && hasRunning)
      reason = arr(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True')
        ? 'Running'
        : 'NotReady';
  }
  const deleting = obj(pod.metadata).deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  const restartsText =
    restarts !== 0 && lastRestart !== ''
      ? `${restarts} (${translateTimestampSince(lastRestart, now)} ago)`
      : String(restarts);
  return { ready: `${readyCount}/${total}`, status: reason, restarts: restartsText };
}

/** Pods: Name, Ready (`1/1`), Status, Restarts, Age; wide: IP, Node, Nominated Node, Readiness Gates. */
export const podTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'The aggregate status of the containers in this pod.'),
    col(
      'Restarts',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    ageColumn,
    col(
      'IP',
      'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      'string',
      1,
    ),
    col('Node', 'NodeName indicates in which node this pod is scheduled.', 'string', 1),
    col(
      'Nominated Node',
      'nominatedNodeName is set only when this pod preempts other pods on the node.',
      'string',
      1,
    ),
    col(
      'Readiness Gates',
      'If specified, all readiness gates will be evaluated for pod readiness.',
      'string',
      1,
    ),
  ],
  (pod, ctx) => {
    const { ready, status, restarts } = podSummary(pod, ctx.now);
    const spec = obj(pod.spec);
    const st = obj(pod.status);
    const ip = str(obj(arr(st.podIPs)[0]).ip) || '<none>';
    const gates = arr(spec.readinessGates);
    let gatesText = '<none>';
    if (gates.length > 0) {
      const conds = arr(st.conditions);
      const trueCount = gates.filter(
        (g) => conds.find((c) => c.type === g.conditionType)?.status === 'True',
      ).length;
      gatesText = `${trueCount}/${gates.length}`;
    }
    return [
      nameOf(pod),
      ready,
      status,
      restarts,
      ageOf(pod, ctx),
      ip,
      str(spec.nodeName) || '<none>',
      str(st.nominatedNodeName) || '<none>',
      gatesText,
    ];
  },
  (pod) => {
    const phase = obj(pod.status).phase;
    if (phase === 'Succeeded')
      return [
        {
          type: 'Completed',
          status: 'True',
          reason: 'Succeeded',
          message: 'The pod has completed successfully.',
        },
      ];
    if (phase === 'Failed')
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
);
