"""watch.Watch().stream from a resourceVersion the server has compacted away: the client raises
ApiException 410 (with timeout_seconds it does not retry)."""
import json

from kubernetes import client, watch
from kubernetes.client.rest import ApiException

from common import emit, setup

api_client, ns, rest = setup()
core = client.CoreV1Api(api_client)
out = {"events": []}
try:
    for ev in watch.Watch().stream(core.list_namespaced_config_map, ns, resource_version=rest[0],
                                   timeout_seconds=10):
        out["events"].append(ev["type"])
    out["error"] = None
except ApiException as e:
    body = json.loads(e.body) if e.body else {}
    out["error"] = {"status": e.status, "text": "%s %s" % (e.reason, body.get("message", ""))}
emit(out)
