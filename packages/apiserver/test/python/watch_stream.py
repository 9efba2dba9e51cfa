"""watch.Watch().stream: replays changes after a resourceVersion, stops on w.stop(), and ends by
itself when the server's timeoutSeconds runs out."""
from kubernetes import client, watch

from common import emit, setup

api_client, ns, _ = setup()
core = client.CoreV1Api(api_client)
out = {}

rv = core.list_namespaced_config_map(ns).metadata.resource_version
core.create_namespaced_config_map(ns, {"metadata": {"name": "w", "labels": {"w": "1"}}, "data": {"n": "1"}})
core.create_namespaced_config_map(ns, {"metadata": {"name": "other"}})
core.patch_namespaced_config_map("w", ns, {"data": {"n": "2"}})
core.delete_namespaced_config_map("w", ns)

events = []
w = watch.Watch()
for ev in w.stream(core.list_namespaced_config_map, ns, label_selector="w=1",
                   resource_version=rv, timeout_seconds=20):
    obj = ev["object"]
    events.append([ev["type"], type(obj).__name__, obj.metadata.name, obj.data["n"]])
    if len(events) == 3:
        w.stop()
out["events"] = events
out["resource_version"] = w.resource_version

# An idle watch ends when the server's timeoutSeconds runs out (the stream closes cleanly).
idle = list(watch.Watch().stream(core.list_namespaced_config_map, ns, label_selector="none=1",
                                 timeout_seconds=1))
out["idle"] = idle
emit(out)
