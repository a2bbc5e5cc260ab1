"""k8s/: the kustomize base and its dev and prod overlays, checked offline (no kubectl, no kustomize here).

The base names every object in full and the overlays only list the base and JSON 6902 patches, so what
kustomize renders is each base object with its patches applied: done here with the jsonpatch library
(RFC 6902, exactly what kustomize applies), and every object, base and rendered, validated with
kubernetes-validate against the Kubernetes schemas (strict: an unknown field fails). Then the wiring:
probes, selectors, the HPA's and PDB's targets, the Ingress's backend and timeouts, the Valkey cluster's
durability, and that no secret value is in the repository.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import jsonpatch
import pytest
import yaml
from kubernetes_validate import utils as k8s

from cli.main import build_parser

K8S = Path(__file__).resolve().parents[2] / "k8s"
BASE = K8S / "base"
OVERLAYS = ("dev", "prod")
KUBERNETES = k8s.latest_version()
SETTINGS = Path(__file__).resolve().parents[2] / "services" / "runtime" / "settings.py"


def documents(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def kustomization(folder: Path) -> dict:
    found = yaml.safe_load((folder / "kustomization.yaml").read_text())
    assert found["apiVersion"] == "kustomize.config.k8s.io/v1beta1" and found["kind"] == "Kustomization"
    # Fields kustomize would apply that this check does not: none may appear.
    assert set(found) <= {"apiVersion", "kind", "resources", "patches"}, set(found)
    return found


def base_objects() -> list[dict]:
    listed = kustomization(BASE)["resources"]
    on_disk = {p.name for p in BASE.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(listed) == on_disk, "every base manifest is listed, and every listed one exists"
    return [doc for name in listed for doc in documents(BASE / name)]


def matches(obj: dict, target: dict) -> bool:
    group, _, version = obj["apiVersion"].rpartition("/")
    return (obj["kind"], obj["metadata"]["name"]) == (target["kind"], target["name"]) and (
        target.get("group", "") == group and target.get("version", version) == version
    )


def render(overlay: str) -> list[dict]:
    """What `kustomize build k8s/overlays/<overlay>` gives: the base with the overlay's patches applied."""
    folder = K8S / "overlays" / overlay
    found = kustomization(folder)
    assert found["resources"] == ["../../base"]
    objects = copy.deepcopy(base_objects())
    for patch in found["patches"]:
        targets = [i for i, obj in enumerate(objects) if matches(obj, patch["target"])]
        assert len(targets) == 1, f"{overlay}: {patch} selects {len(targets)} objects"
        operations = yaml.safe_load((folder / patch["path"]).read_text())
        objects[targets[0]] = jsonpatch.apply_patch(objects[targets[0]], operations)  # a wrong path fails here
    return objects


def by_kind(objects: list[dict], kind: str, name: str) -> dict:
    (found,) = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    return found


RENDERINGS = {"base": base_objects, **{name: (lambda name=name: render(name)) for name in OVERLAYS}}


@pytest.fixture(params=list(RENDERINGS))
def rendered(request) -> tuple[str, list[dict]]:
    return request.param, RENDERINGS[request.param]()


def test_every_object_is_valid_against_the_kubernetes_schemas(rendered):
    name, objects = rendered
    for obj in objects:
        assert obj["metadata"]["namespace" if obj["kind"] != "Namespace" else "name"] == "patience-arena"
        k8s.validate(obj, KUBERNETES, strict=True)  # raises ValidationError with the field's path


def test_the_example_secret_is_valid_and_holds_no_value():
    (secret,) = documents(K8S / "secret.example.yaml")
    k8s.validate(secret, KUBERNETES, strict=True)
    assert set(secret["stringData"].values()) == {"REPLACE-ME"} and "data" not in secret


def test_no_rendering_carries_a_secret(rendered):
    _, objects = rendered
    assert not [o for o in objects if o["kind"] == "Secret"]
    text = yaml.safe_dump_all(objects)
    assert not re.search(r"(?i)(secret|password|token)\s*:\s*[^\s{]", text.replace("secretKeyRef", "").replace("secretName", ""))


def pod_labels(deployment: dict) -> dict:
    return deployment["spec"]["template"]["metadata"]["labels"]


def selects(selector: dict, labels: dict) -> bool:
    return selector.items() <= labels.items()


def test_the_gateway_is_probed_scaled_protected_and_reachable(rendered):
    name, objects = rendered
    gateway = by_kind(objects, "Deployment", "gateway")
    (container,) = gateway["spec"]["template"]["spec"]["containers"]
    assert container["command"] == ["arena", "serve"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": 8000}  # the image's ARENA_PORT
    assert container["readinessProbe"]["httpGet"] == {"path": "/ready", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/health", "port": "http"}
    assert container["resources"]["requests"]["cpu"] and container["resources"]["limits"]["memory"]
    assert container["env"][0]["valueFrom"]["secretKeyRef"] == {"name": "arena-secret", "key": "ARENA_SECRET"}
    shared = {item["name"]: item["valueFrom"]["secretKeyRef"] for item in container["env"] if "valueFrom" in item}
    for name in ("ARENA_TOURNAMENT_SECRET", "ARENA_REPLAY_SIGNING_SECRET"):  # never made per pod (its data dir goes)
        assert shared[name] == {"name": "arena-secret", "key": name}
    assert selects(gateway["spec"]["selector"]["matchLabels"], pod_labels(gateway))
    hpa = by_kind(objects, "HorizontalPodAutoscaler", "gateway")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "gateway"}
    assert hpa["spec"]["minReplicas"] <= gateway["spec"]["replicas"] <= hpa["spec"]["maxReplicas"]
    pdb = by_kind(objects, "PodDisruptionBudget", "gateway")
    assert selects(pdb["spec"]["selector"]["matchLabels"], pod_labels(gateway))
    assert pdb["spec"].get("minAvailable", 0) < gateway["spec"]["replicas"], "the budget would block every drain"
    service = by_kind(objects, "Service", "gateway")
    assert selects(service["spec"]["selector"], pod_labels(gateway))
    assert {p["targetPort"] for p in service["spec"]["ports"]} <= set(ports)
    ingress = by_kind(objects, "Ingress", "gateway")
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == "gateway" and backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    notes = ingress["metadata"]["annotations"]
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):  # a websocket lasts a whole game
        assert int(notes[f"nginx.ingress.kubernetes.io/{timeout}"]) >= 3600


def test_the_validator_runs_arena_validate_and_the_config_is_what_the_server_reads(rendered):
    _, objects = rendered
    validator = by_kind(objects, "Deployment", "validator")
    (container,) = validator["spec"]["template"]["spec"]["containers"]
    args = build_parser().parse_args(container["command"][1:])  # exits on an unknown subcommand or flag
    assert container["command"][:2] == ["arena", "validate"] and args.metrics_port == container["ports"][0]["containerPort"]
    assert container["livenessProbe"]["httpGet"]["path"] == "/metrics"
    config = by_kind(objects, "ConfigMap", "arena-config")["data"]
    read = set(re.findall(r'"((?:ARENA_|REDIS_)[A-Z_]+)"', SETTINGS.read_text()))
    read |= {"AWS_REGION", "AWS_ENDPOINT_URL"}  # read by obstore for an s3:// archive (services/archive/objects.py)
    assert set(config) <= read, set(config) - read
    # A pod's data dir goes with the pod: an archiver may only run where the archive is a shared store.
    archive = config.get("ARENA_ARCHIVE_URL", "")
    assert config.get("ARENA_ARCHIVER") == "0" or archive.startswith(("s3://", "gs://", "az://")), config
    assert config["REDIS_URL"].startswith("redis+cluster://redis-cluster:") and config["ARENA_VALIDATORS"] == "0"
    for deployment in (validator, by_kind(objects, "Deployment", "gateway")):
        spec = deployment["spec"]["template"]["spec"]
        assert spec["securityContext"]["runAsNonRoot"] and spec["containers"][0]["securityContext"]["readOnlyRootFilesystem"]


def test_the_valkey_cluster_has_a_replica_per_master_and_fsyncs_every_write(rendered):
    _, objects = rendered
    nodes = by_kind(objects, "StatefulSet", "redis-cluster")
    headless = by_kind(objects, "Service", nodes["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None" and selects(headless["spec"]["selector"], pod_labels(nodes))
    job = by_kind(objects, "Job", "redis-cluster-create")
    script = " ".join(job["spec"]["template"]["spec"]["containers"][0]["command"])
    replicas_per_master = int(re.search(r"--cluster-replicas (\d+)", script).group(1))
    assert replicas_per_master >= 1 and nodes["spec"]["replicas"] == 3 * (1 + replicas_per_master)
    assert f"for i in {' '.join(str(n) for n in range(nodes['spec']['replicas']))};" in script
    conf = dict(line.split(None, 1) for line in by_kind(objects, "ConfigMap", "redis-cluster")["data"]["valkey.conf"].splitlines())
    assert (conf["appendonly"], conf["appendfsync"], conf["maxmemory-policy"]) == ("yes", "always", "noeviction")
    (claim,) = nodes["spec"]["volumeClaimTemplates"]
    mounts = {m["name"]: m["mountPath"] for m in nodes["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == conf["dir"]  # the AOF is on the persistent volume


def test_the_overlays_change_what_they_say():
    dev, prod = render("dev"), render("prod")
    assert by_kind(dev, "Deployment", "gateway")["spec"]["replicas"] == 1
    assert by_kind(dev, "ConfigMap", "arena-config")["data"]["ARENA_LOG_LEVEL"] == "debug"
    assert by_kind(prod, "HorizontalPodAutoscaler", "gateway")["spec"]["minReplicas"] >= 3
    image = by_kind(prod, "Deployment", "gateway")["spec"]["template"]["spec"]["containers"][0]["image"]
    assert not image.endswith(":latest") and ":" in image
    assert by_kind(prod, "Ingress", "gateway")["spec"]["tls"][0]["hosts"] == ["arena.example.com"]
