"""CoreV1Api CRUD on ConfigMaps, label-selected lists, and ApiException codes (404, 409, 422)."""
from kubernetes import client

from common import api_error, emit, setup

api_client, ns, _ = setup()
core = client.CoreV1Api(api_client)
out = {}

created = core.create_namespaced_config_map(
    ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="a", labels={"app": "py"}), data={"k": "v"})
)
out["created"] = {"name": created.metadata.name, "uid": created.metadata.uid,
                  "rv": created.metadata.resource_version,
                  "timestamp_type": type(created.metadata.creation_timestamp).__name__}
core.create_namespaced_config_map(ns, {"metadata": {"name": "b"}, "data": {"x": "y"}})

read = core.read_namespaced_config_map("a", ns)
out["read"] = read.data
listed = core.list_namespaced_config_map(ns, label_selector="app=py")
out["listed"] = [i.metadata.name for i in listed.items]
out["list_rv"] = listed.metadata.resource_version
out["all_names"] = sorted(i.metadata.name for i in core.list_namespaced_config_map(ns).items)

read.data = {"k": "w"}
replaced = core.replace_namespaced_config_map("a", ns, read)
out["replaced"] = replaced.data
# Merge patch (a dict body is sent as strategic merge patch by the Python client).
patched = core.patch_namespaced_config_map("a", ns, {"metadata": {"labels": {"tier": "web"}}, "data": {"extra": "1"}})
out["patched"] = {"data": patched.data, "labels": patched.metadata.labels}

# ApiException codes.
out["404"] = api_error(lambda: core.read_namespaced_config_map("nope", ns))
out["409"] = api_error(lambda: core.create_namespaced_config_map(ns, {"metadata": {"name": "a"}}))
out["409_stale"] = api_error(lambda: core.replace_namespaced_config_map("a", ns, read))
out["422"] = api_error(lambda: core.create_namespaced_config_map(ns, {"metadata": {"name": "Bad_Name"}}))

deleted = core.delete_namespaced_config_map("b", ns)
out["delete_kind"] = type(deleted).__name__
out["after_delete"] = api_error(lambda: core.read_namespaced_config_map("b", ns))

# Cluster-scoped: namespaces, and the server's version.
out["namespaces"] = sorted(n.metadata.name for n in core.list_namespace().items)
out["version"] = client.VersionApi(api_client).get_code().git_version
emit(out)
