/** One `.proto` source: its upstream import path and its text. */
export interface ProtoFile {
  /** The path upstream files import it by (`k8s.io/api/core/v1/generated.proto`). */
  readonly path: string;
  readonly text: string;
}
