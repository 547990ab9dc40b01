#!/usr/bin/env python3
"""`make lint-docker`: Docker/compose.yaml, Docker/compose.frankfurter.yaml, Docker/kubernetes.yaml, Docker/kubernetes-tier.yaml and Docker/prometheus/prometheus.yaml
parse as YAML, have the expected shape, and agree with Docker/Dockerfile's runtime stage (user, port,
cache volume, probes; the port Prometheus scrapes).

No kubectl or Docker engine here, so this is a structural check, not a server-side validation."""
import sys
from pathlib import Path

import yaml

import dockerfile  # tools/container/dockerfile.py, beside this script

DOCKER = Path(__file__).resolve().parents[2] / "Docker"
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def allowed(text):
    """A LARDER_ALLOWED_HOSTS value as a set of names."""
    return {name.strip() for name in str(text or "").split(",")}


stages = dockerfile.read(DOCKER / "Dockerfile")
runtime = stages[-1]  # the default target
user = runtime.last("USER") or ""
uid, _, gid = user.partition(":")
expose, volumes = runtime.last("EXPOSE"), runtime.last("VOLUME")
port = int(expose.split()[0].split("/")[0]) if expose else 0
volume = dockerfile.words(volumes)[0] if volumes else ""
check(uid.isdigit() and int(uid) != 0, f"Dockerfile: USER should be a numeric non-root uid, not {user!r}")
check(port > 0 and volume, "Dockerfile: the runtime stage should EXPOSE a port and declare a VOLUME")

# compose.yaml, and compose.frankfurter.yaml (Larder mirroring Frankfurter's public API): the same rules for Larder.
def check_compose(file):
    compose = yaml.safe_load((DOCKER / file).read_text())
    larder = compose["services"]["larder"]
    check(larder["build"]["context"] == ".." and larder["build"]["dockerfile"] == "Docker/Dockerfile",
          f"{file}: larder must build Docker/Dockerfile with the repository root as context")
    check(larder.get("read_only") is True, f"{file}: larder should have a read-only root filesystem")
    check(any(str(v).split(":")[1] == volume for v in larder["volumes"]), f"{file}: no volume mounted at {volume}")
    check(any(str(p).endswith(f":{port}") for p in larder["ports"]), f"{file}: port {port} is not published")
    check(str(larder.get("stop_grace_period")) == "15s", f"{file}: stop_grace_period should be 15s")
    named = {str(v).split(":")[0] for v in larder["volumes"]}
    check(named <= set(compose.get("volumes") or {}), f"{file}: larder's volumes should be named volumes")
    for name, service in compose["services"].items():
        target = service.get("build", {}).get("target")
        if target:
            check(target in {stage.name for stage in stages},
                  f"{file}: service {name} builds target {target!r}, which the Dockerfile lacks")
    return compose, larder


compose, larder = check_compose("compose.yaml")
frankfurter, frankfurter_larder = check_compose("compose.frankfurter.yaml")
rates_url = str(frankfurter_larder["environment"].get("LARDER_RATES_URL", ""))
check(rates_url.endswith("/;format=frankfurter}") and "/v1/" not in rates_url,
      "compose.frankfurter.yaml: LARDER_RATES_URL should be Frankfurter's API root with ;format=frankfurter")

# prometheus/prometheus.yaml scrapes the compose service by name and port; the rules select job="larder".
prometheus = yaml.safe_load((DOCKER / "prometheus" / "prometheus.yaml").read_text())
jobs = {job["job_name"]: job for job in prometheus["scrape_configs"]}
targets = [t for config in jobs.get("larder", {}).get("static_configs", []) for t in config["targets"]]
check(targets == [f"larder:{port}"], f"prometheus.yaml: job larder should scrape larder:{port}, not {targets}")
check(jobs.get("larder", {}).get("metrics_path", "/metrics") == "/metrics", "prometheus.yaml: scrape /metrics")
monitoring = compose["services"].get("prometheus")
if monitoring:
    check("./prometheus:/etc/prometheus:ro" in monitoring["volumes"]
          and "--config.file=/etc/prometheus/prometheus.yaml" in monitoring["command"],
          "compose: prometheus should load prometheus/prometheus.yaml, mounted read-only")

# kubernetes.yaml
documents = [d for d in yaml.safe_load_all((DOCKER / "kubernetes.yaml").read_text()) if d]
for document in documents:
    check(all(k in document for k in ("apiVersion", "kind", "metadata")) and document["metadata"].get("name"),
          f"kubernetes: a document lacks apiVersion/kind/metadata.name: {str(document)[:60]}")
kinds = {d["kind"]: d for d in documents}
check({"Deployment", "PersistentVolumeClaim", "Service"} <= set(kinds), f"kubernetes: kinds are {sorted(kinds)}")
if "Deployment" in kinds:
    pod = kinds["Deployment"]["spec"]["template"]["spec"]
    container = pod["containers"][0]
    security = container["securityContext"]
    check(pod["securityContext"].get("runAsNonRoot") is True, "kubernetes: pod runAsNonRoot should be true")
    check(str(security.get("runAsUser")) == uid == str(pod["securityContext"].get("runAsUser")),
          f"kubernetes: runAsUser should be the image's uid {uid}")
    check(security.get("readOnlyRootFilesystem") is True, "kubernetes: readOnlyRootFilesystem should be true")
    check(security.get("allowPrivilegeEscalation") is False, "kubernetes: allowPrivilegeEscalation should be false")
    check(security.get("capabilities", {}).get("drop") == ["ALL"], "kubernetes: capabilities should drop ALL")
    check(pod.get("terminationGracePeriodSeconds") == 15, "kubernetes: terminationGracePeriodSeconds should be 15")
    check(pod.get("enableServiceLinks") is False, "kubernetes: enableServiceLinks must be false (LARDER_PORT)")
    check(container["livenessProbe"]["httpGet"]["path"] == "/health", "kubernetes: liveness should GET /health")
    check(container["readinessProbe"]["httpGet"]["path"] == "/ready", "kubernetes: readiness should GET /ready")
    check(any(p["containerPort"] == port for p in container["ports"]), f"kubernetes: containerPort should be {port}")
    check(all(k in container["resources"].get(s, {}) for s in ("requests", "limits") for k in ("cpu", "memory")),
          "kubernetes: cpu and memory requests and limits should be set")
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"] if "persistentVolumeClaim" in v}
    check(any(mounts.get(name) == volume for name in claims), f"kubernetes: the PVC should be mounted at {volume}")
    check(set(claims.values()) <= {d["metadata"]["name"] for d in documents if d["kind"] == "PersistentVolumeClaim"},
          "kubernetes: a claimName names no PersistentVolumeClaim of the manifest")
    selector = kinds["Deployment"]["spec"]["selector"]["matchLabels"]
    check(kinds.get("Service", {}).get("spec", {}).get("selector") == selector,
          "kubernetes: the Service selector should match the Deployment's pods")

# kubernetes-tier.yaml: two primaries with their own volumes, replicas per node and scaled, one poller.
tier = [d for d in yaml.safe_load_all((DOCKER / "kubernetes-tier.yaml").read_text()) if d]
by_kind = {}
for document in tier:
    by_kind.setdefault(document["kind"], []).append(document)
workloads = [d for d in tier if d["kind"] in ("StatefulSet", "DaemonSet", "Deployment")]
check({"StatefulSet", "DaemonSet", "Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget"} <= set(by_kind),
      f"kubernetes-tier: kinds are {sorted(by_kind)}")
tier_maps = {d["metadata"]["name"]: d["data"] for d in by_kind.get("ConfigMap", [])}
for workload in workloads:
    name, pod = workload["metadata"]["name"], workload["spec"]["template"]["spec"]
    container = pod["containers"][0]
    check(container["livenessProbe"]["httpGet"]["path"] == "/health" and container["readinessProbe"]["httpGet"]["path"] == "/ready",
          f"kubernetes-tier: {name} should probe /health (liveness) and /ready (readiness)")
    check(container["securityContext"].get("readOnlyRootFilesystem") is True and pod.get("enableServiceLinks") is False
          and str(container["securityContext"].get("runAsUser")) == uid,
          f"kubernetes-tier: {name} should run as uid {uid}, read-only, without service links")
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    check(volume in mounts, f"kubernetes-tier: {name} should mount its cache at {volume}")
    check(workload["spec"]["selector"]["matchLabels"] == workload["spec"]["template"]["metadata"]["labels"],
          f"kubernetes-tier: {name}'s selector should match its pods' labels")
    for source in container.get("envFrom", []):
        check(source["configMapRef"]["name"] in tier_maps, f"kubernetes-tier: {name} reads a ConfigMap the file lacks")
primaries = by_kind.get("StatefulSet", [{}])[0]
check(primaries.get("spec", {}).get("replicas") == 2 and primaries["spec"].get("volumeClaimTemplates"),
      "kubernetes-tier: the primaries are a StatefulSet of two, each with its own volume")
headless = [d for d in by_kind.get("Service", []) if d["metadata"]["name"] == primaries.get("spec", {}).get("serviceName")]
check(headless and headless[0]["spec"].get("clusterIP") == "None", "kubernetes-tier: the primaries' serviceName is a headless Service")
node_services = [d for d in by_kind.get("Service", []) if d["spec"].get("internalTrafficPolicy") == "Local"]
daemon = by_kind.get("DaemonSet", [{}])[0]
check(any(d["spec"]["selector"] == daemon.get("spec", {}).get("selector", {}).get("matchLabels") for d in node_services),
      "kubernetes-tier: the DaemonSet's pods are behind an internalTrafficPolicy: Local Service")
replicas = by_kind.get("Deployment", [{}])[0]
hpa, pdb = by_kind.get("HorizontalPodAutoscaler", [{}])[0], by_kind.get("PodDisruptionBudget", [{}])[0]
check(hpa.get("spec", {}).get("scaleTargetRef", {}).get("name") == replicas.get("metadata", {}).get("name"),
      "kubernetes-tier: the HPA should scale the replicas' Deployment")
check(pdb.get("spec", {}).get("selector", {}).get("matchLabels") == replicas.get("spec", {}).get("selector", {}).get("matchLabels"),
      "kubernetes-tier: the PodDisruptionBudget should select the replicas' Deployment")
# The replicas ask the primaries by their StatefulSet names, the origin only as a fallback (SPEC §4.12).
replica_map = tier_maps.get("larder-replica", {})
entries = [e.strip() for e in str(replica_map.get("LARDER_RATES_URL", "")).replace(", http", "\nhttp").splitlines() if e.strip()]
names = [f"http://{primaries['metadata']['name']}-{i}.{primaries['spec']['serviceName']}:{port}/" for i in range(2)] if primaries else []
check(len(entries) == 3 and [e.split(";")[0] for e in entries[:2]] == names
      and all(e.endswith(";format=frankfurter") for e in entries[:2]) and entries[2].endswith(";fallback"),
      f"kubernetes-tier: the replicas' LARDER_RATES_URL should be the two primaries' roots, then the origin ;fallback: {entries}")
check(entries[2].split(";")[0] == tier_maps.get("larder-primary", {}).get("LARDER_RATES_URL") if len(entries) == 3 else False,
      "kubernetes-tier: the replicas' fallback should be the primaries' origin")
check(replica_map.get("LARDER_RATES_SCHEDULE") == "follow", "kubernetes-tier: the replicas should follow the primaries' max-age")
for name, needed in [("larder-primary", {".larder-primary", "ip-literals"}), ("larder-replica", {"larder", "larder-node", "ip-literals"})]:
    hosts = tier_maps.get(name, {}).get("LARDER_ALLOWED_HOSTS")
    check(needed <= allowed(hosts), f"kubernetes-tier {name}: LARDER_ALLOWED_HOSTS should include {sorted(needed)}, not {hosts!r}")

# The Host allowlists: each must let through what reaches Larder there by address (the probes and
# healthchecks: IP literals) and by name (compose's Prometheus scrapes larder:PORT; the cluster's Service).


image_env = dict(word.split("=", 1) for word in dockerfile.words(runtime.last("ENV") or "") if "=" in word)
compose_hosts = str(larder["environment"].get("LARDER_ALLOWED_HOSTS", ""))
compose_hosts = compose_hosts.split(":-", 1)[1].rstrip("}") if compose_hosts.startswith("${") else compose_hosts
config_maps = [d for d in documents if d["kind"] == "ConfigMap"]
for where, hosts, needed in [
    ("Dockerfile ENV", image_env.get("LARDER_ALLOWED_HOSTS"), {"localhost", "larder", "ip-literals"}),
    ("compose", compose_hosts, {"localhost", "larder", "ip-literals"}),
    ("kubernetes ConfigMap", config_maps[0]["data"].get("LARDER_ALLOWED_HOSTS") if config_maps else None,
     {"localhost", "larder", ".svc.cluster.local", "ip-literals"}),
]:
    check(needed <= allowed(hosts), f"{where}: LARDER_ALLOWED_HOSTS should include {sorted(needed)}, not {hosts!r}")

if problems:
    print("\n".join(f"check-manifests: {p}" for p in problems), file=sys.stderr)
    sys.exit(1)
print(f"check-manifests: compose.yaml ({len(compose['services'])} services), compose.frankfurter.yaml, kubernetes.yaml "
      f"({len(documents)} documents: {', '.join(d['kind'] for d in documents)}), kubernetes-tier.yaml ({len(tier)} documents: "
      f"{', '.join(sorted(by_kind))}) and prometheus/prometheus.yaml "
      f"parse and agree with the Dockerfile (uid {uid}, port {port}, volume {volume})")
