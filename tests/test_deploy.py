"""The Kubernetes manifests in deploy/: valid for a current Kubernetes (kubernetes-validate,
strict: unknown fields refused), and they say what docs/operations.md promises: probes on /healthz
and /readyz, a non-root read-only container, volumes for user lexicons and the cache, an HPA
on CPU, a PodDisruptionBudget and a Service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
KUBERNETES = "1.37.0"


def resources() -> dict[str, dict[str, Any]]:
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text())
    out = {}
    for name in kustomization["resources"]:
        doc = yaml.safe_load((DEPLOY / name).read_text())
        out[doc["kind"]] = doc
    return out


@pytest.mark.parametrize("name", yaml.safe_load((DEPLOY / "kustomization.yaml").read_text())["resources"])
def test_manifest_validates_strictly(name: str) -> None:
    doc = yaml.safe_load((DEPLOY / name).read_text())
    kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_a_broken_manifest_is_caught() -> None:
    doc = yaml.safe_load((DEPLOY / "deployment.yaml").read_text())
    doc["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["timeoutSecond"] = 3
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_the_deployment_runs_as_the_readme_says() -> None:
    r = resources()
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"} <= set(r)
    pod = r["Deployment"]["spec"]["template"]["spec"]
    (main,) = pod["containers"]
    assert main["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert main["readinessProbe"]["httpGet"]["path"] == "/readyz"
    sec = main["securityContext"]
    assert sec["readOnlyRootFilesystem"] and not sec["allowPrivilegeEscalation"] and pod["securityContext"]["runAsNonRoot"]
    mounts = {m["mountPath"] for m in main["volumeMounts"]}
    env = {e["name"]: e["value"] for e in main["env"]}
    assert {env["WORDSOLVER_CACHE_DIR"], env["WORDSOLVER_LEXICON_DIR"], "/tmp"} <= mounts
    assert main["resources"]["requests"]["cpu"] == env["WORDSOLVER_WORKERS"]  # one worker per requested core
    assert r["HorizontalPodAutoscaler"]["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    assert r["PodDisruptionBudget"]["spec"]["minAvailable"] >= 1
