"""bin/serve's port is an option (and PORT); a bad one is refused before anything starts."""

import os
import subprocess

import pytest


def serve(repo_root, *args, env=None):
    return subprocess.run(
        [str(repo_root / "bin" / "serve"), *args], capture_output=True, text=True, timeout=30, env=env
    )


def test_help_names_the_port_option_and_the_variable(repo_root):
    done = serve(repo_root, "--help")
    assert done.returncode == 0
    assert "--port N" in done.stdout and "$PORT" in done.stdout


@pytest.mark.parametrize(
    "args, env_port, message",
    [
        (["--port", "abc"], None, "the port must be a number from 1 to 65535, not 'abc'"),
        (["--port=70000"], None, "the port must be a number from 1 to 65535, not '70000'"),
        ([], "0", "the port must be a number from 1 to 65535, not '0'"),
        (["--port"], None, "--port needs a port number"),
        (["8000"], None, "unknown argument: 8000"),
    ],
)
def test_a_bad_port_is_refused_before_anything_starts(repo_root, args, env_port, message):
    env = {k: v for k, v in os.environ.items() if k != "PORT"}
    if env_port is not None:
        env["PORT"] = env_port
    done = serve(repo_root, *args, env=env)
    assert done.returncode == 2
    assert f"bin/serve: {message}" in done.stderr
    assert "serving on" not in done.stderr and "migrat" not in done.stdout
