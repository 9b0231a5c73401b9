"""The official Python Kubernetes client (Debian's python3-kubernetes) against Bosun.

Run by test/conformance/python-client.test.ts with KUBECONFIG pointing at an embedded server that serves the
Widget CRD (example.com/v1) and BOSUN_NAMESPACE naming a namespace this suite creates.
"""
import json
import os
import queue
import threading
import unittest

from kubernetes import client, config, dynamic, watch
from kubernetes.client.rest import ApiException

NS = os.environ["BOSUN_NAMESPACE"]


def config_map(name, data=None, labels=None):
    return client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name=name, labels=labels or {}),
        data=data or {},
    )


class Conformance(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api_client = config.new_client_from_config(config_file=os.environ["KUBECONFIG"])
        cls.core = client.CoreV1Api(cls.api_client)
        cls.core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NS)))

    def raw_patch(self, path, body, content_type, query=None):
        """A PATCH with an explicit content type, as the generated API methods cannot choose merge or apply."""
        data, status, _ = self.api_client.call_api(
            path, "PATCH", query_params=query or [], header_params={"Content-Type": content_type, "Accept": "application/json"},
            body=body, auth_settings=["BearerToken"], response_type="object", _return_http_data_only=False,
        )
        self.assertIn(status, (200, 201))
        return data

    def test_crud(self):
        created = self.core.create_namespaced_config_map(NS, config_map("crud", {"a": "1"}))
        self.assertEqual(created.data, {"a": "1"})
        self.assertTrue(created.metadata.uid)
        with self.assertRaises(ApiException) as duplicate:
            self.core.create_namespaced_config_map(NS, config_map("crud"))
        self.assertEqual(duplicate.exception.status, 409)
        self.assertEqual(json.loads(duplicate.exception.body)["reason"], "AlreadyExists")
        read = self.core.read_namespaced_config_map("crud", NS)
        read.data["b"] = "2"
        replaced = self.core.replace_namespaced_config_map("crud", NS, read)
        self.assertEqual(replaced.data, {"a": "1", "b": "2"})
        self.assertNotEqual(replaced.metadata.resource_version, created.metadata.resource_version)
        stale = read
        stale.data["c"] = "3"
        with self.assertRaises(ApiException) as conflict:
            self.core.replace_namespaced_config_map("crud", NS, stale)
        self.assertEqual(conflict.exception.status, 409)
        self.assertEqual(json.loads(conflict.exception.body)["reason"], "Conflict")
        names = [c.metadata.name for c in self.core.list_namespaced_config_map(NS).items]
        self.assertIn("crud", names)
        self.core.delete_namespaced_config_map("crud", NS)
        with self.assertRaises(ApiException) as missing:
            self.core.read_namespaced_config_map("crud", NS)
        self.assertEqual(missing.exception.status, 404)

    def test_secret_string_data_reads_back_as_data(self):
        self.core.create_namespaced_secret(NS, client.V1Secret(metadata=client.V1ObjectMeta(name="token"), string_data={"token": "s3cret"}))
        secret = self.core.read_namespaced_secret("token", NS)
        self.assertEqual(secret.data, {"token": "czNjcmV0"})
        self.assertIsNone(secret.string_data)

    def test_patches(self):
        self.core.create_namespaced_config_map(NS, config_map("patched", {"a": "1"}, {"tier": "web"}))
        # A dict body goes out as a strategic merge patch.
        strategic = self.core.patch_namespaced_config_map("patched", NS, {"data": {"b": "2"}})
        self.assertEqual(strategic.data, {"a": "1", "b": "2"})
        # A list body goes out as a JSON patch.
        json_patch = self.core.patch_namespaced_config_map("patched", NS, [{"op": "remove", "path": "/data/a"}])
        self.assertEqual(json_patch.data, {"b": "2"})
        merged = self.raw_patch(f"/api/v1/namespaces/{NS}/configmaps/patched", {"metadata": {"labels": {"tier": None}}, "data": {"c": "3"}}, "application/merge-patch+json")
        self.assertEqual(merged["data"], {"b": "2", "c": "3"})
        self.assertNotIn("tier", merged["metadata"].get("labels") or {})

    def test_watch(self):
        listed = self.core.list_namespaced_config_map(NS, label_selector="watched=yes")
        events = queue.Queue()
        w = watch.Watch()

        def stream():
            for event in w.stream(self.core.list_namespaced_config_map, NS, label_selector="watched=yes",
                                  resource_version=listed.metadata.resource_version, timeout_seconds=20):
                events.put((event["type"], event["object"].metadata.name))
            events.put(("END", None))

        thread = threading.Thread(target=stream, daemon=True)
        thread.start()
        self.core.create_namespaced_config_map(NS, config_map("w1", labels={"watched": "yes"}))
        self.core.patch_namespaced_config_map("w1", NS, {"data": {"x": "1"}})
        self.core.delete_namespaced_config_map("w1", NS)
        seen = [events.get(timeout=20) for _ in range(3)]
        w.stop()
        self.assertEqual(seen, [("ADDED", "w1"), ("MODIFIED", "w1"), ("DELETED", "w1")])

    def test_paging(self):
        for i in range(5):
            self.core.create_namespaced_config_map(NS, config_map(f"page-{i}", labels={"paged": "yes"}))
        names, token, pages = [], None, 0
        while True:
            page = self.core.list_namespaced_config_map(NS, label_selector="paged=yes", limit=2, _continue=token)
            pages += 1
            self.assertLessEqual(len(page.items), 2)
            names += [c.metadata.name for c in page.items]
            token = page.metadata._continue
            if not token:
                break
        self.assertEqual(pages, 3)
        self.assertEqual(sorted(names), [f"page-{i}" for i in range(5)])

    def test_dynamic_discovery(self):
        dyn = dynamic.DynamicClient(self.api_client)
        widgets = dyn.resources.get(api_version="example.com/v1", kind="Widget")
        self.assertTrue(widgets.namespaced)
        self.assertEqual(widgets.name, "widgets")
        self.assertIn("wd", widgets.short_names)
        config_maps = dyn.resources.get(api_version="v1", kind="ConfigMap")
        self.assertEqual(config_maps.name, "configmaps")
        created = widgets.create(body={"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "dyn"}, "spec": {"size": 1}}, namespace=NS)
        self.assertEqual(created.spec.size, 1)
        patched = widgets.patch(name="dyn", namespace=NS, body={"spec": {"color": "red"}}, content_type="application/merge-patch+json")
        self.assertEqual(patched.spec.color, "red")
        self.assertEqual(patched.spec.size, 1)
        listed = widgets.get(namespace=NS)
        self.assertEqual([w.metadata.name for w in listed.items], ["dyn"])
        widgets.delete(name="dyn", namespace=NS)
        with self.assertRaises(dynamic.exceptions.NotFoundError):
            widgets.get(name="dyn", namespace=NS)

    def test_server_side_apply(self):
        dyn = dynamic.DynamicClient(self.api_client)
        config_maps = dyn.resources.get(api_version="v1", kind="ConfigMap")
        manifest = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "applied", "namespace": NS}, "data": {"owner": "a"}}
        # This client version sends apply bodies only as text.
        first = config_maps.server_side_apply(body=json.dumps(manifest), name="applied", namespace=NS, field_manager="py-a")
        self.assertEqual(first.data.owner, "a")
        managers = [(m.manager, m.operation) for m in first.metadata.managedFields]
        self.assertIn(("py-a", "Apply"), managers)
        manifest["data"]["owner"] = "b"
        with self.assertRaises(dynamic.exceptions.ConflictError):
            config_maps.server_side_apply(body=json.dumps(manifest), name="applied", namespace=NS, field_manager="py-b")
        forced = config_maps.server_side_apply(body=json.dumps(manifest), name="applied", namespace=NS, field_manager="py-b", force_conflicts=True)
        self.assertEqual(forced.data.owner, "b")
        self.assertEqual([m.manager for m in forced.metadata.managedFields if m.operation == "Apply"], ["py-b"])
        # The same through a raw PATCH, as clients without server_side_apply do it.
        manifest["data"]["owner"] = "c"
        raw = self.raw_patch(f"/api/v1/namespaces/{NS}/configmaps/applied", json.dumps(manifest), "application/apply-patch+yaml",
                             [("fieldManager", "py-c"), ("force", True)])
        self.assertEqual(raw["data"], {"owner": "c"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
