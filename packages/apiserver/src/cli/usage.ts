import { authenticationFlagsUsage } from '../authentication/authentication-flags.js';
import { leaderElectionFlagsUsage } from '../controllers/leader-election-flags.js';
import { featureGatesHelp } from '../feature-gates.js';
import { observabilityFlagsUsage } from '../observability-flags.js';
import { versionFlagsUsage } from '../versions/version-flags.js';
import { deprecatedFlagsUsage } from './deprecated-flags.js';

/** The text of `orchard-apiserver --help` (also printed after a flag the parser refuses). */
export const cliUsage = `Usage: orchard-apiserver [options]

  --port N               port to listen on (0 = any free port; default 6443)
  --host ADDR            address to bind (default 127.0.0.1); added to the serving certificate's names
  --tls-san NAME         extra DNS name or IP address for the serving certificate (repeatable or
                         comma-separated, e.g. --tls-san api.example.com,10.0.0.5)
  --flavor orch|kubernetes   identifiers of the API (default orch)
  --storage sqlite|memory|etcd  storage backend (default sqlite: durable, in --data-dir; memory: nothing
                         survives a restart; etcd: the cluster of --etcd-servers)
  --etcd-servers URLS    etcd client URLs for --storage etcd, comma-separated (http://127.0.0.1:2379)
  --etcd-prefix P        key prefix in etcd (default /registry)
  --etcd-cafile F        CA bundle (PEM) that etcd's serving certificate chains to (https URLs)
  --etcd-certfile F      client certificate (PEM) presented to etcd
  --etcd-keyfile F       its private key (PEM)
  --encryption-provider-config FILE  EncryptionConfiguration (apiserver.config.<domain>/v1): which
                         resources are encrypted at rest, with aesgcm, aescbc, secretbox or identity;
                         the first provider writes, all read (rotation by order)
  --data-dir DIR         where the database, the generated certificates (reused on restart, so old
                         kubeconfigs stay valid) and the kubeconfig live (default .orchard)
  --insecure-http        plain HTTP on loopback; every request is the admin (refused with a
                         non-loopback --host)
  --kubeconfig-out PATH  where to write the admin kubeconfig (default <data-dir>/admin.kubeconfig)
  --max-body-bytes N     request body limit in bytes (default 3145728)
  --shutdown-delay-duration D  on SIGINT/SIGTERM, fail /readyz and keep serving for D (e.g. 5s; default 0s)
  --watch-window D       watch history retained, e.g. 2s, 5m (default 5m)
  --continue-ttl D       lifetime of list continue tokens, e.g. 30s (default 5m)
  --compaction-interval D  compact the store every D to the revision of the previous tick, keeping
                         at least the watch window of history (default 5m; 0 disables)
  --feature-gates LIST   feature gates, e.g. AllowUnsafeMalformedObjectDeletion=true,Other=false
${featureGatesHelp()
  .map((g) => `                         ${g}`)
  .join('\n')}
  --max-requests-inflight N           non-mutating requests served at once (default 400; 0 = no limit)
  --max-mutating-requests-inflight N  mutating requests served at once (default 200; 0 = no limit)
  --request-timeout D    answer 504 to a request still running after D (default 1m0s; watches exempt)
  --max-watches-per-user N  open watches one user may hold (default 2000; 0 = no limit)
  --service-cluster-ip-range CIDR  Service cluster IPs are allocated from it (default 10.0.0.0/24,
                         upstream kube-apiserver's; one IPv4 or IPv6 CIDR, at most 20 host bits)
  --service-node-port-range RANGE  NodePort/LoadBalancer node ports (default 30000-32767)
  --simulate-replica-readiness  ReplicaSets report their replicas ready and available (no pods run),
                         so Deployment rollouts complete; for tests (default off: rollouts wait)
  --node-monitor-grace-period D  a node whose Lease is not renewed for D gets Ready and the pressure
                         conditions Unknown (node lifecycle controller; default 50s)
  --authorization-mode LIST  ordered authorizers: AlwaysAllow, AlwaysDeny, Node, RBAC, ABAC, Webhook
                         (default Node,RBAC); system:masters (the admin) always passes; with Node,
                         NodeRestriction admission limits what nodes write
  --authorization-policy-file PATH  ABAC policy, one JSON object per line (needs mode ABAC)
  --authorization-webhook-config-file PATH  kubeconfig of the SubjectAccessReview webhook (mode Webhook)
  --authorization-webhook-version v1|v1beta1  SubjectAccessReview version sent (default v1beta1)
  --authorization-webhook-cache-authorized-ttl D    reuse "allowed" answers for D (default 5m0s)
  --authorization-webhook-cache-unauthorized-ttl D  reuse other answers for D (default 30s)
  --authorization-config PATH  AuthorizationConfiguration (named authorizers, webhooks with match
                         conditions), reloaded on change and every 60s; excludes --authorization-mode
                         and --authorization-webhook-*
  --log-format text|json  log records on standard error as compact text lines or pino JSON lines
                         (default text; upstream's --logging-format is accepted too); with json the
                         start banner on standard output is one JSON "ready" record
  -v, --v N              log verbosity (default 0); 2 adds one line per request (verb, URI, status,
                         latency, user agent), as upstream's httplog
${deprecatedFlagsUsage}
  -h, --help             this text

${leaderElectionFlagsUsage}

${observabilityFlagsUsage}

${versionFlagsUsage}

${authenticationFlagsUsage}`;
