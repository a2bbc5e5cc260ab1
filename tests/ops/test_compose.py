"""infra/: no Docker engine runs here, so the compose file and the image are checked as files: the compose
file against the Compose specification (the compose-spec package's strict parser), then every service's
image, command, ports, volumes and healthcheck against what the project really runs."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from compose_spec import PyCompose
from dockerfile_parse import DockerfileParser

from cli.main import build_parser
from services.gateway import create_app
from services.runtime.settings import Settings

INFRA = Path(__file__).resolve().parents[2] / "infra"
OUR_IMAGE = "patience-arena:latest"
APP_PORT = 8000


@pytest.fixture(scope="module")
def compose() -> dict:
    text = (INFRA / "compose.yaml").read_text()
    PyCompose.from_yaml(text).validate()  # the specification's shapes, and every volume referenced is defined
    return yaml.safe_load(text)


@pytest.fixture(scope="module")
def app_routes(tmp_path_factory) -> set[str]:
    settings = Settings(redis_url="redis://127.0.0.1:1/0", data_dir=tmp_path_factory.mktemp("app"), secret="s" * 32)
    return {route.path for route in create_app(settings).routes}


def settings_variables() -> set[str]:
    """Every variable services/runtime/settings.py reads."""
    source = (Path(__file__).resolve().parents[2] / "services" / "runtime" / "settings.py").read_text()
    return set(re.findall(r'"((?:ARENA_|REDIS_)[A-Z_]+)"', source))


def probe_url(service: dict) -> str:
    """The URL a healthcheck's `python -c "...urlopen(URL...)"` fetches."""
    found = re.search(r"urlopen\('([^']+)'", " ".join(service["healthcheck"]["test"]))
    assert found, service["healthcheck"]
    return found.group(1)


def test_every_service_has_an_image_a_healthcheck_and_a_restart_policy(compose):
    for name, service in compose["services"].items():
        assert service.get("image"), name
        assert service["healthcheck"]["test"][0] == "CMD", name
        assert service.get("restart") == "unless-stopped", name


def test_our_services_run_real_arena_commands(compose):
    parser = build_parser()
    commands = {}
    for name, service in compose["services"].items():
        if service["image"] != OUR_IMAGE:
            continue
        command = service["command"]
        assert command[0] == "arena", name
        commands[command[1]] = parser.parse_args(command[1:])  # exits (fails) on an unknown subcommand or flag
        env = service["environment"]
        assert set(env) <= settings_variables(), f"{name}: variables the server never reads"
        assert urlsplit(env["REDIS_URL"]).hostname in compose["services"], name
        assert "build" in service or "gateway" in service["depends_on"], f"{name}: who builds its image?"
    assert set(commands) == {"serve", "validate"}


def test_two_gateways_behind_the_proxy_and_two_validators(compose, app_routes):
    gateway, validator, proxy = (compose["services"][n] for n in ("gateway", "validator", "proxy"))
    assert gateway["deploy"]["replicas"] == 2 and validator["deploy"]["replicas"] == 2
    assert gateway["environment"]["ARENA_VALIDATORS"] == "0"  # the validators do the checking
    assert re.fullmatch(r"\$\{ARENA_SECRET:\?.+\}", gateway["environment"]["ARENA_SECRET"])  # required, not written
    probe = urlsplit(probe_url(gateway))
    assert probe.port == APP_PORT and probe.path in app_routes and gateway["expose"] == [str(APP_PORT)]
    port = int(validator["command"][validator["command"].index("--metrics-port") + 1])
    assert urlsplit(probe_url(validator)).port == port and validator["expose"] == [str(port)]
    nginx = mounted_file(proxy, "/etc/nginx/conf.d/default.conf").read_text()
    assert f"server gateway:{APP_PORT};" in nginx and "proxy_set_header Upgrade $http_upgrade;" in nginx
    assert proxy["ports"] == ["8080:80"] and proxy["depends_on"]["gateway"]["condition"] == "service_healthy"
    assert urlsplit(proxy["healthcheck"]["test"][-1]).path in app_routes


def mounted_file(service: dict, target: str) -> Path:
    for volume in service["volumes"]:
        source, mounted, *_ = volume.split(":")
        if mounted == target:
            path = INFRA / source
            assert path.is_file(), f"{volume}: {path} does not exist"
            return path
    raise AssertionError(f"nothing is mounted at {target}")


def test_redis_runs_its_mounted_config_with_every_write_fsynced(compose):
    redis = compose["services"]["redis"]
    binary, config_path, *flags = redis["command"]
    assert binary == "valkey-server" and redis["healthcheck"]["test"][1] == "valkey-cli"
    config = dict(
        line.split(None, 1) for line in mounted_file(redis, config_path).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    assert config["appendonly"] == "yes" and config["appendfsync"] == "always" and config["save"] == '""'
    assert config["maxmemory-policy"] == "noeviction"
    data = [v for v in redis["volumes"] if v.split(":")[1] == config["dir"]]
    assert data and data[0].split(":")[0] in compose["volumes"], "the AOF's folder is not on a named volume"
    assert redis["working_dir"] == config["dir"] and "ports" not in redis  # never published


def test_the_image_is_multi_stage_and_runs_as_nobody_in_particular():
    parser = DockerfileParser(path=str(INFRA / "Dockerfile"))
    instructions = parser.structure
    stages = [i for i in instructions if i["instruction"] == "FROM"]
    assert len(stages) >= 2 and parser.is_multistage
    final = instructions[instructions.index(stages[-1]):]
    users = [i["value"] for i in final if i["instruction"] == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(i["instruction"] == "COPY" and i["value"].startswith("--from=") for i in final)
    assert [i["value"] for i in final if i["instruction"] == "EXPOSE"] == [str(APP_PORT)]
    assert f"ARENA_PORT={APP_PORT}" in " ".join(i["value"] for i in final if i["instruction"] == "ENV")
    health = " ".join(i["value"] for i in final if i["instruction"] == "HEALTHCHECK")
    assert f"http://127.0.0.1:{APP_PORT}/health" in health
    assert [i["value"] for i in final if i["instruction"] == "CMD"] == ['["arena", "serve"]']
    root = INFRA.parent
    for copy in (i["value"].split() for i in instructions if i["instruction"] == "COPY" and "--from" not in i["value"]):
        for source in copy[:-1]:
            assert (root / source).exists(), f"COPY {source}: not in the repository"
