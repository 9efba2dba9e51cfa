"""Shared helpers of the Python client scripts the vitest suite (python-client.e2e.test.ts) runs.

Each script takes the kubeconfig path and a namespace on the command line, does its calls with
Debian's python3-kubernetes, and prints one JSON document of what it saw for the test to assert.
"""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def setup():
    """load_kube_config from argv[1]; returns (ApiClient, namespace, extra args)."""
    config.load_kube_config(config_file=sys.argv[1])
    return client.ApiClient(), sys.argv[2], sys.argv[3:]


def api_error(call):
    """Runs call(); returns the ApiException's status, reason and Status body (None on success)."""
    try:
        call()
    except ApiException as e:
        body = json.loads(e.body) if e.body else None
        return {"status": e.status, "reason": e.reason, "body": body}
    return None


def emit(result):
    """Prints the result for the test."""
    print(json.dumps(result, sort_keys=True, default=str))
