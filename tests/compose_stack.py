"""docker-compose.yml's services run as processes on this machine's loopback: no Docker.

Each service runs its own command, with its own environment, and is declared healthy by
its own health probe, as compose would, after the services it depends on
(`condition: service_healthy`). What a container provides and a process on the host
does not is put back by these rules, derived from the compose file (nothing about a
service is written here by hand):

- Variables: `${VAR}`, `${VAR:-default}`, `${VAR:?error}` and `$$` are interpolated as
  compose does, from the `.env` the test gives (`dotenv`); a service also gets those
  values as its `env_file`.
- Host names: every service runs on 127.0.0.1, each container port on a free port of
  its own. `name:port` (a URL's authority, an nginx upstream) becomes
  `127.0.0.1:<its port>`; an environment value that is a service's name (POSTGRES_HOST:
  db) becomes 127.0.0.1, and the `*_PORT` beside it (POSTGRES_PORT) that service's port.
  /etc/hosts is not touched.
- A service's own addresses: `0.0.0.0` (listen everywhere in the container) becomes
  127.0.0.1, and its container port, wherever its command or probe names it
  (`-p 8000`, `http://127.0.0.1:8000/healthz`), its free port.
- The fixed address compose gives the proxy (TRUSTED_PROXIES) becomes the proxy's
  address here, 127.0.0.1.
- Volumes: a named volume is a directory of the test's (`static` is DJANGO_STATIC_ROOT
  for the app, and where nginx serves /static/ from); a bind mount is its own path
  (CERTS_DIR and ACME_DIR, which the test sets in `.env` as a deployer does); a
  container's /tmp is the test's temporary directory.
- Images: the app's image is this source tree and its .venv (PATH starts there, cwd is
  the repository: the Dockerfile's WORKDIR /app with PYTHONPATH=/app), or, given an
  `image` (tests/image_tree.py), the image the Dockerfile builds: its /app and its
  virtualenv. postgres:16 is a
  private cluster (bench.stack.PostgresServer, trust authentication on 127.0.0.1) given
  the image's POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, with PGHOST/PGPORT set so
  its probe, `pg_isready`, finds it. redis:7 runs the service's command plus `--port` and
  `--bind`, and its probe `redis-cli ping` gets `-p <port>` (redis-cli reads no port
  from the environment). nginx:1.27 is Debian's nginx 1.22: deploy/nginx.conf is
  included in an http block as the image's default.conf is, and its `http2 on;` (1.25+)
  becomes `http2` on the TLS `listen`; `listen [::]` lines are dropped (loopback only).
- Probes run as written with those substitutions, every half second instead of their
  `interval` (the test waits, it does not watch for hours).

The machine's own PostgreSQL and Redis (5432, 6379) are never used: the stack has its
own on free ports, and everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

from bench.stack import PostgresServer, free_port, no_proxy_env
from tests.image_tree import ImageTree

REPO = Path(__file__).resolve().parents[1]
COMPOSE = REPO / "docker-compose.yml"
VENV_BIN = REPO / ".venv" / "bin"
NGINX = "/usr/sbin/nginx"  # bin/test installs Debian's nginx-light when it is missing
LOOPBACK = "127.0.0.1"
# What each image listens on inside its container (the app's from the Dockerfile's EXPOSE).
IMAGE_PORTS = {"postgres": [5432], "redis": [6379], "nginx": [80, 443]}
APP_PORTS = [8000]

_VAR = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def interpolate(value, env: dict[str, str]):
    """Compose's variable interpolation, in every string of `value`."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match) -> str:
        if m.group(0) == "$$":
            return "$"
        name = m.group(1) or m.group(4)
        op, arg = m.group(2), m.group(3)
        have = env.get(name)
        unset = have is None or (have == "" and op is not None and op.startswith(":"))
        if op in (":-", "-"):
            return arg if unset else have
        if op in (":?", "?"):
            if unset:
                raise ValueError(f"compose: {name}: {arg}")
            return have
        return have or ""

    return _VAR.sub(one, value)


def load_compose(dotenv: dict[str, str]) -> dict:
    """docker-compose.yml with its anchors merged and its variables interpolated."""
    return interpolate(YAML(typ="safe").load(COMPOSE.read_text()), dotenv)


def command_words(command) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(w) for w in command]


@dataclass
class Service:
    name: str
    spec: dict
    ports: dict[int, int]  # container port -> the free loopback port standing for it
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen | None = None
    log: Path | None = None
    last_probe: subprocess.CompletedProcess | None = None

    @property
    def image(self) -> str:
        return self.spec.get("image", "").split(":")[0]

    @property
    def is_app(self) -> bool:
        return "build" in self.spec


class ComposeStack:
    """The compose services as processes. `start()` starts them in dependency order,
    each once the ones it depends on are healthy; `stop()` ends them all."""

    def __init__(self, root: Path, dotenv: dict[str, str], image: ImageTree | None = None):
        self.root = Path(root)
        # where the app's processes run, and whose Python
        self.app_dir = image.app if image is not None else REPO
        self.app_bin = image.bin if image is not None else VENV_BIN
        self.dotenv = dict(dotenv)
        self.compose = load_compose(self.dotenv)
        self.services: dict[str, Service] = {}
        for name, spec in self.compose["services"].items():
            ports = IMAGE_PORTS.get(spec.get("image", "").split(":")[0], APP_PORTS if "build" in spec else [])
            self.services[name] = Service(name, spec, {p: free_port() for p in ports})
        self.volumes = {name: self.root / "volumes" / name for name in self.compose.get("volumes") or {}}
        self.tmp = self.root / "tmp"
        self.pg: PostgresServer | None = None
        self.started: list[str] = []

    # --- the rules ---------------------------------------------------------------------

    def address_of(self, name: str) -> str:
        return LOOPBACK

    def localize(self, text: str, own: Service | None = None) -> str:
        """The host names, ports and addresses of `text` as they are here."""
        for other in self.services.values():
            for inside, outside in other.ports.items():
                text = re.sub(rf"\b{re.escape(other.name)}:{inside}\b", f"{LOOPBACK}:{outside}", text)
        if own is not None:
            text = text.replace("0.0.0.0", LOOPBACK)
            for inside, outside in own.ports.items():
                text = re.sub(rf"\b(127\.0\.0\.1|localhost):{inside}\b", f"{LOOPBACK}:{outside}", text)
                text = re.sub(rf"(^|\s)(-p|--port)(\s+|=){inside}\b", rf"\g<1>\g<2>\g<3>{outside}", text)
        for fixed in self._fixed_addresses():
            text = text.replace(fixed, LOOPBACK)
        return text.replace("/tmp/", f"{self.tmp}/")

    def _fixed_addresses(self) -> list[str]:
        found = []
        for s in self.services.values():
            for net in (s.spec.get("networks") or {}).values():
                if isinstance(net, dict) and net.get("ipv4_address"):
                    found.append(net["ipv4_address"])
        return found

    def words(self, service: Service, words: list[str]) -> list[str]:
        """A command's words localized; `-p 8000` as two words is the service's port too."""
        out = [self.localize(w, service) for w in words]
        for i, w in enumerate(out[:-1]):
            if w in ("-p", "--port") and out[i + 1].isdigit() and int(out[i + 1]) in service.ports:
                out[i + 1] = str(service.ports[int(out[i + 1])])
        return out

    def mount_source(self, source: str) -> Path:
        """Where a mount's source is here: a named volume's directory, or the bind
        mount's own path (relative to the compose file)."""
        if source in self.volumes:
            return self.volumes[source]
        return (COMPOSE.parent / source).resolve()

    def environment(self, service: Service) -> dict[str, str]:
        env = {
            k: v
            for k, v in no_proxy_env().items()
            if not k.startswith(("DJANGO_", "POSTGRES_", "HEIST_", "REDIS_", "CELERY_", "PG", "CHANNELS_"))
        }
        spec_env = {k: "" if v is None else str(v) for k, v in (service.spec.get("environment") or {}).items()}
        if service.spec.get("env_file"):
            env.update(self.dotenv)
        names = set(self.services)
        local = {}
        for key, value in spec_env.items():
            local[key] = self.address_of(value) if value in names else self.localize(value, service)
        for key, value in spec_env.items():  # POSTGRES_HOST: db -> POSTGRES_PORT is db's
            if key.endswith("_HOST") and value in names:
                port_key = key[: -len("_HOST")] + "_PORT"
                target = self.services[value]
                if port_key in spec_env and spec_env[port_key].isdigit() and int(spec_env[port_key]) in target.ports:
                    local[port_key] = str(target.ports[int(spec_env[port_key])])
        env.update(local)
        if service.is_app:
            env["PATH"] = f"{self.app_bin}:{env.get('PATH', '/usr/bin:/bin')}"
            env["PYTHONPATH"] = str(self.app_dir)  # the Dockerfile's PYTHONPATH=/app
            env["PYTHONUNBUFFERED"] = "1"
            env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
            for volume in service.spec.get("volumes") or []:
                source, target = volume.split(":")[:2]
                if target == "/app/staticfiles" and source in self.volumes:
                    env["DJANGO_STATIC_ROOT"] = str(self.volumes[source])
        if service.image == "postgres" and self.pg is not None:
            env.update(PGHOST=LOOPBACK, PGPORT=str(self.pg.port))
            env["PATH"] = f"{self.pg.bin}:{env.get('PATH', '/usr/bin:/bin')}"
        return env

    def probe_words(self, service: Service) -> list[str] | None:
        check = service.spec.get("healthcheck")
        if not check:
            return None
        test = check["test"]
        if isinstance(test, str):
            test = ["CMD-SHELL", test]
        kind, rest = test[0], [str(w) for w in test[1:]]
        if kind == "CMD-SHELL":
            return ["sh", "-c", self.localize(rest[0], service)]
        words = self.words(service, rest)
        if service.image == "redis" and words[:1] == ["redis-cli"]:
            words[1:1] = ["-p", str(service.ports[6379])]
        return words

    # --- processes ---------------------------------------------------------------------

    def _spawn(self, service: Service, words: list[str], env: dict[str, str]) -> None:
        service.log = self.root / f"{service.name}.log"
        with open(service.log, "ab") as log:
            service.proc = subprocess.Popen(
                words,
                cwd=self.app_dir if service.is_app else REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        service.env = env

    def start_service(self, service: Service) -> None:
        if service.image == "postgres":
            self._start_postgres(service)
        elif service.image == "redis":
            words = command_words(service.spec.get("command") or ["redis-server"])
            words += ["--port", str(service.ports[6379]), "--bind", LOOPBACK, "--daemonize", "no"]
            self._spawn(service, words, self.environment(service))
        elif service.image == "nginx":
            self._start_nginx(service)
        elif service.is_app:
            self._spawn(service, self.words(service, command_words(service.spec["command"])), self.environment(service))
        else:
            raise AssertionError(f"no way to run {service.name} ({service.spec.get('image')}) as a process")
        self.started.append(service.name)

    def _start_postgres(self, service: Service) -> None:
        """The image's first start: a cluster with POSTGRES_USER owning POSTGRES_DB."""
        env = service.spec.get("environment") or {}
        # its own directory: the server runs as the postgres user, which cannot enter
        # pytest's temporary directories (0700)
        self.pg = PostgresServer(Path(tempfile.mkdtemp(prefix="heist-compose-pg-")), port=service.ports[5432]).start()
        user, db, password = env["POSTGRES_USER"], env["POSTGRES_DB"], env["POSTGRES_PASSWORD"]
        import psycopg
        from psycopg import sql

        with psycopg.connect(
            host=LOOPBACK, port=self.pg.port, user="postgres", dbname="postgres", autocommit=True
        ) as c:
            c.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(user), sql.Literal(password)))
            c.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(db), sql.Identifier(user)))
        service.proc = self.pg.proc
        service.log = self.pg.root / "postgres.log"
        service.env = self.environment(service)

    def nginx_conf(self, service: Service) -> str:
        mounts = {}
        conf_source = None
        for volume in service.spec.get("volumes") or []:
            source, target = volume.split(":")[:2]
            if target.endswith(".conf"):
                conf_source = self.mount_source(source)
            else:
                mounts[target] = self.mount_source(source)
        assert conf_source is not None, "the proxy mounts no nginx conf"
        conf = conf_source.read_text()
        conf = self.localize(conf, service)
        conf = "\n".join(line for line in conf.splitlines() if not line.strip().startswith("listen [::]"))
        http2 = "http2 on;" in conf
        conf = conf.replace("http2 on;", "")
        for inside, outside in service.ports.items():
            extra = " http2" if http2 and inside == 443 else ""
            conf = re.sub(rf"listen {inside}( ssl)?;", rf"listen {LOOPBACK}:{outside}\1{extra};", conf)
        for target, local in sorted(mounts.items(), key=lambda kv: -len(kv[0])):
            conf = conf.replace(target.rstrip("/") + "/", f"{local}/").replace(target + ";", f"{local};")
        self.nginx_mounts = mounts
        temp = " ".join(
            f"{k}_temp_path {self.root}/nginx-{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        return (
            f"user root;\nworker_processes 1;\nerror_log {self.root}/nginx-error.log;\npid {self.root}/nginx.pid;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\ninclude /etc/nginx/mime.types;\naccess_log {self.root}/nginx-access.log;\n{temp}\n{conf}\n}}\n"
        )

    def _start_nginx(self, service: Service) -> None:
        path = self.root / "nginx.conf"
        path.write_text(self.nginx_conf(service))
        self._spawn(
            service,
            [NGINX, "-p", str(self.root), "-c", str(path), "-g", "daemon off;"],
            {"PATH": "/usr/sbin:/usr/bin:/bin"},
        )

    def healthy(self, service: Service) -> bool:
        words = self.probe_words(service)
        if words is None:
            return service.proc is not None and service.proc.poll() is None
        try:
            done = subprocess.run(
                words, cwd=self.app_dir if service.is_app else REPO, env=service.env, capture_output=True, timeout=10
            )
        except subprocess.TimeoutExpired:
            return False
        service.last_probe = done
        return done.returncode == 0

    def wait_healthy(self, service: Service, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if service.proc is not None and service.proc.poll() is not None:
                raise AssertionError(f"{service.name} exited {service.proc.returncode}:\n{self.log_tail(service)}")
            if self.healthy(service):
                return
            time.sleep(0.5)
        probe = service.last_probe
        said = (probe.stdout + probe.stderr).decode(errors="replace")[-2000:] if probe else "(never ran)"
        raise AssertionError(
            f"{service.name} not healthy after {timeout}s; probe said:\n{said}\n{self.log_tail(service)}"
        )

    def order(self) -> list[Service]:
        done: list[str] = []

        def visit(name: str) -> None:
            if name in done:
                return
            for dep in self.services[name].spec.get("depends_on") or {}:
                visit(dep)
            done.append(name)

        for name in self.services:
            visit(name)
        return [self.services[n] for n in done]

    def start(self, timeout: float = 90) -> ComposeStack:
        """Every service, each once what it depends on is healthy (as `condition:
        service_healthy` says; compose starts the others at once)."""
        self.tmp.mkdir(parents=True, exist_ok=True)
        for v in self.volumes.values():
            v.mkdir(parents=True, exist_ok=True)
        for service in self.order():
            for dep, cond in (service.spec.get("depends_on") or {}).items():
                if (cond or {}).get("condition") == "service_healthy":
                    self.wait_healthy(self.services[dep], timeout)
            self.start_service(service)
        return self

    def wait_all_healthy(self, timeout: float = 90) -> None:
        for service in self.services.values():
            self.wait_healthy(service, timeout)

    def stop(self) -> None:
        for name in reversed(self.started):
            service = self.services[name]
            if service.image == "postgres" and self.pg is not None:
                continue
            if service.proc is not None and service.proc.poll() is None:
                service.proc.terminate()
                try:
                    service.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    service.proc.kill()
                    service.proc.wait(timeout=10)
        if self.pg is not None:
            subprocess.run(
                self.pg._as_postgres(
                    [str(self.pg.bin / "pg_ctl"), "stop", "-D", str(self.pg.data), "-m", "fast", "-w"]
                ),
                capture_output=True,
            )
            self.pg.stop()
            shutil.rmtree(self.pg.root, ignore_errors=True)

    def log_tail(self, service: Service, n: int = 40) -> str:
        try:
            lines = service.log.read_text(errors="replace").splitlines() if service.log else []
        except OSError:
            lines = []
        return "\n".join(lines[-n:]) or "(no log)"

    def log_text(self, name: str) -> str:
        service = self.services[name]
        try:
            return service.log.read_text(errors="replace") if service.log else ""
        except OSError:
            return ""


def write_certificate(directory: Path, hostname: str) -> Path:
    """A throwaway self-signed certificate for `hostname` (fullchain.pem, privkey.pem, as
    the README's certbot leaves them); the path of the certificate to trust."""
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", f"/CN={hostname}", "-addext", f"subjectAltName=DNS:{hostname}",
            "-keyout", str(directory / "privkey.pem"), "-out", str(directory / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    os.chmod(directory / "privkey.pem", 0o600)
    return directory / "fullchain.pem"
