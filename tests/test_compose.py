"""docker-compose.yml is valid Compose and has the agreed production shape;
.ci/run runs what the README tells people to run. All offline."""

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

REPO_ROOT = Path(__file__).resolve().parent.parent
COMPOSE = REPO_ROOT / "docker-compose.yml"


@pytest.fixture(scope="module")
def compose():
    return YAML(typ="safe").load(COMPOSE.read_text())


def command_words(service):
    """The service's command as words; a `sh -c SCRIPT` wrapper is unwrapped."""
    command = service.get("command", [])
    words = shlex.split(command) if isinstance(command, str) else list(command)
    if words[:2] == ["sh", "-c"]:
        words = shlex.split(words[2])
    return words


def test_compose_file_matches_compose_spec():
    checker = Path(sys.executable).with_name("check-jsonschema")
    result = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.compose-spec", str(COMPOSE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_two_daphne_web_services(compose):
    services = compose["services"]
    for name in ("web1", "web2"):
        words = command_words(services[name])
        assert "daphne" in words, name
        assert "config.asgi:application" in words, name
        env = services[name]["environment"]
        assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"


@pytest.mark.parametrize("name", ["worker", "beat"])
def test_celery_services(compose, name):
    words = command_words(compose["services"][name])
    assert words[:4] == ["celery", "-A", "config", name]
    assert compose["services"][name]["environment"]["DJANGO_SETTINGS_MODULE"] == ("config.settings.production")


def test_backing_services(compose):
    services = compose["services"]
    assert services["db"]["image"].startswith("postgres:16")
    assert "healthcheck" in services["db"]
    assert any(v.endswith(":/var/lib/postgresql/data") for v in services["db"]["volumes"])
    assert services["redis"]["image"].startswith("redis:7")
    assert "healthcheck" in services["redis"]


def test_proxy_fronts_both_web_services(compose):
    proxy = compose["services"]["proxy"]
    assert proxy["image"].startswith("nginx:1.27")
    assert {"web1", "web2"} <= set(proxy["depends_on"])
    assert any("deploy/nginx.conf" in v for v in proxy["volumes"])
    nginx = (REPO_ROOT / "deploy" / "nginx.conf").read_text()
    assert "server web1:8000" in nginx and "server web2:8000" in nginx
    assert "proxy_set_header Upgrade $http_upgrade" in nginx


def readme_test_command():
    """The first word(s) of the README's `bin/test ...  # comment` line."""
    for line in (REPO_ROOT / "README.md").read_text().splitlines():
        command = line.split("#", 1)[0].strip()
        if command.startswith("bin/test"):
            return shlex.split(command)
    raise AssertionError("README has no bin/test line")


def test_ci_runs_the_readme_test_command():
    readme = readme_test_command()
    exec_lines = [
        shlex.split(line.strip())
        for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip().startswith("exec ")
    ]
    assert len(exec_lines) == 1
    ci = exec_lines[0][1:]
    assert ci[: len(readme)] == readme
