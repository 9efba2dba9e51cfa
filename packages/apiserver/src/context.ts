import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Codec, NegotiatedRange } from './codecs.js';
import type { ResourceDefinition, UserInfo } from './registry/resource.js';
import type { RequestQuery } from './request/query.js';
import type { RequestInfo } from './request/request-info.js';
import type { ServerState } from './state.js';

/** Everything a handler needs about one request. Created by the server, passed down the chain. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly info: RequestInfo;
  readonly query: RequestQuery;
  readonly user: UserInfo;
  readonly server: ServerState;
  /** The resource type, for resource requests that resolved to one. */
  readonly def?: ResourceDefinition;
  /** The version addressed by the URL. */
  readonly version: string;
  /** `Warning` response headers to add (RFC 7234 §5.5 form is applied when writing). */
  readonly warnings: string[];
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal: AbortSignal;
}

export type { Codec, NegotiatedRange };
