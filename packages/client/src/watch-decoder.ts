import { type ApiObject, type WatchEvent, WatchEventSchema } from '@orchard/meta';
import { ClientError } from './errors.js';

/**
 * Decodes a watch response body (spec doc 1 §4.6: newline-delimited JSON events, chunk boundaries
 * anywhere) into events. Each event is checked against meta's `WatchEventSchema`; a line that is not
 * JSON or not an event rejects with `ClientError` (`Decode`) naming the field path.
 */
export async function* decodeWatchEvents<T extends ApiObject = ApiObject>(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<WatchEvent<T>> {
  const decoder = new TextDecoder();
  let buf = '';
  const parse = (line: string): WatchEvent<T> => {
    let ev: WatchEvent<T>;
    try {
      ev = JSON.parse(line) as WatchEvent<T>;
    } catch (e) {
      throw new ClientError('Decode', 200, `watch event is not JSON: ${line.slice(0, 80)}`, { cause: e });
    }
    const checked = WatchEventSchema.safeParse(ev);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new ClientError('Decode', 200, `not a watch event (${at}${issue.message}): ${line.slice(0, 80)}`);
    }
    return ev;
  };
  for await (const chunk of body) {
    buf += decoder.decode(chunk, { stream: true });
    let nl = buf.indexOf('\n');
    while (nl >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) yield parse(line);
      nl = buf.indexOf('\n');
    }
  }
  buf += decoder.decode();
  const rest = buf.trim();
  if (rest) yield parse(rest);
}
