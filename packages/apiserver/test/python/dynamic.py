"""The DynamicClient on a CRD (discovery, create, get, list, merge patch, status, server-side apply,
delete, ApiException codes) and server-side apply on a ConfigMap (conflicts and force)."""
import json

import yaml
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import ConflictError, NotFoundError

from common import api_error, emit, setup

api_client, ns, _ = setup()
dyn = DynamicClient(api_client)
out = {}

gadgets = dyn.resources.get(api_version="example.com/v1", kind="Gadget")
out["resource"] = {"name": gadgets.name, "namespaced": gadgets.namespaced, "kind": gadgets.kind}
created = gadgets.create(namespace=ns, body={"apiVersion": "example.com/v1", "kind": "Gadget",
                                             "metadata": {"name": "g"}, "spec": {"color": "red"}})
out["created"] = created.to_dict()["spec"]
out["got"] = gadgets.get(name="g", namespace=ns).metadata.uid == created.metadata.uid
listed = gadgets.get(namespace=ns)
out["list"] = {"kind": listed.kind, "names": [i.metadata.name for i in listed.items]}
patched = gadgets.patch(namespace=ns, name="g", body={"spec": {"size": 4}},
                        content_type="application/merge-patch+json")
out["patched"] = patched.to_dict()["spec"]
out["strategic"] = api_error(lambda: gadgets.patch(namespace=ns, name="g", body={"spec": {"size": 5}}))
status = dyn.resources.get(api_version="example.com/v1", kind="Gadget").status
out["status"] = status.patch(namespace=ns, name="g", body={"status": {"ready": True}},
                             content_type="application/merge-patch+json").to_dict()["status"]
# python3-kubernetes 22.6 sends an apply body only when it is already serialized (its REST layer
# JSON-encodes only *json content types), so the apply bodies here are YAML / JSON text.
applied = dyn.server_side_apply(gadgets, name="g", namespace=ns, field_manager="py-tool", force_conflicts=True,
                                body=yaml.safe_dump({"apiVersion": "example.com/v1", "kind": "Gadget",
                                                     "metadata": {"name": "g"}, "spec": {"color": "blue"}}))
out["applied"] = {"spec": applied.to_dict()["spec"],
                  "managers": sorted(m["manager"] for m in applied.to_dict()["metadata"]["managedFields"])}
out["invalid"] = api_error(lambda: gadgets.create(
    namespace=ns, body={"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "h"},
                        "spec": {"size": "big"}}))
gadgets.delete(namespace=ns, name="g")
try:
    gadgets.get(namespace=ns, name="g")
    out["deleted"] = False
except NotFoundError as e:
    out["deleted"] = e.status

# Server-side apply on a ConfigMap: create, a conflict for another manager, then force.
cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"},
                   "data": {"color": "red", "size": "L"}})
first = dyn.server_side_apply(cms, body=body, name="ssa", namespace=ns, field_manager="tool-a")
out["ssa_created"] = [[m["manager"], m["operation"]] for m in first.to_dict()["metadata"]["managedFields"]]
other = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"}, "data": {"color": "blue"}})
try:
    dyn.server_side_apply(cms, body=other, name="ssa", namespace=ns, field_manager="tool-b")
    out["ssa_conflict"] = None
except ConflictError as e:
    out["ssa_conflict"] = {"status": e.status, "body": json.loads(e.body)}
forced = dyn.server_side_apply(cms, body=other, name="ssa", namespace=ns, field_manager="tool-b",
                               force_conflicts=True)
out["ssa_forced"] = forced.to_dict()["data"]
# The same with the plain patch call and the apply content type.
plain = cms.patch(body=yaml.safe_dump({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa2"},
                                       "data": {"a": "1"}}),
                  name="ssa2", namespace=ns, content_type="application/apply-patch+yaml", field_manager="tool-c")
out["ssa_plain"] = [plain.metadata.name, plain.to_dict()["data"]]
emit(out)
