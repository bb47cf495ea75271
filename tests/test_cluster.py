"""The Ray backend: a real local Ray runtime gives exactly the local-process results for the
same seed (engine.strategy.cluster); without Ray the commands run locally and say so.

CI installs the extra (``.ci/run``: ``pip install -e '.[cluster]'``), so the Ray tests run
there; a machine without Ray skips only them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import cli
from engine.game import game_rules
from engine.lexicon import Lexicon
from engine.strategy import cluster
from engine.strategy.abtest import ab_test
from engine.strategy.leaves import dumps
from engine.strategy.players import EquityPlayer, GreedyPlayer
from engine.strategy.train_leaves import train


@pytest.fixture(scope="module")
def ray_runtime() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ab_on_ray_equals_the_local_run(ray_runtime: Any, lex: Lexicon) -> None:
    rules = game_rules("crossplay")
    local = ab_test(rules, lex, EquityPlayer(), GreedyPlayer(), 4, 21, workers=1)
    on_ray = ab_test(rules, lex, EquityPlayer(), GreedyPlayer(), 4, 21, ray="local")
    assert {**on_ray.to_dict(), "seconds": 0} == {**local.to_dict(), "seconds": 0}
    assert ray_runtime.cluster_resources().get("CPU") == 2


def test_train_leaves_on_ray_equals_the_local_run(ray_runtime: Any, tmp_path: Path, lex: Lexicon) -> None:
    local = train("wwf", lex, 4, 2, 5, tmp_path / "a.json", chunk=3, log=lambda s: None, workers=1)
    on_ray = train("wwf", lex, 4, 2, 5, tmp_path / "b.json", chunk=3, log=lambda s: None, ray="local")
    assert dumps(on_ray).replace(on_ray.provenance["date"], "") == dumps(local).replace(local.provenance["date"], "")


def test_cli_on_ray(ray_runtime: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["selfplay", "--game", "wwf", "--games", "2", "--ray", "local", "--json"]) == 0
    assert "not installed" not in capsys.readouterr().err


def test_without_ray_the_commands_run_locally_and_say_so(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("app.cli_parallel.ray_installed", lambda: False)
    monkeypatch.setattr(cluster, "ray_installed", lambda: False)
    monkeypatch.setenv("RAY_ADDRESS", "ray://nowhere:10001")
    assert cli.main(["ab", "--game", "wwf", "--pairs", "1", "--json"]) == 0
    err = capsys.readouterr().err
    assert "Ray is not installed" in err and "local processes" in err and "ray://nowhere:10001" in err
    with pytest.raises(cluster.ClusterUnavailableError, match="wordsolver\\[cluster\\]"):
        cluster.connect("auto")


def test_the_rayjob_manifest_runs_a_wordsolver_command() -> None:
    import shlex

    import yaml

    root = Path(__file__).resolve().parent.parent
    doc = yaml.safe_load((root / "deploy" / "ray" / "rayjob.yaml").read_text())
    assert doc["apiVersion"] == "ray.io/v1" and doc["kind"] == "RayJob"
    argv = shlex.split(doc["spec"]["entrypoint"])
    assert argv[0] == "wordsolver"
    args = cli.parser().parse_args(argv[1:])  # a command the CLI accepts
    assert args.run.__name__ == "cmd_ab"
    spec = doc["spec"]["rayClusterSpec"]
    assert spec["rayVersion"] == "2.60.0"
    images = {c["image"] for g in [spec["headGroupSpec"], *spec["workerGroupSpecs"]] for c in g["template"]["spec"]["containers"]}
    assert images == {"wordsolver-ray:0.1.0"}
    assert "FROM rayproject/ray:2.60.0-py311" in (root / "deploy" / "ray" / "Dockerfile").read_text()
