"""Hostile frames for the party socket, from a seeded generator (so a failure names a
seed and an index that reproduce it), and an in-process socket that tells a reply, a
close and a crashed consumer apart.

Every generated frame is one the server must refuse: malformed JSON, truncated frames,
oversized frames, deep nesting, huge numbers, unicode and NUL bytes, every field with a
wrong type, actions with forged seats / tables / cards, another party's table ids,
host commands from guests, forged secrets. None is a legal request for the socket it is
sent on, so the expected answer is always an `error` (or a close), never `ok`.
"""

from __future__ import annotations

import json
import random
import string

from channels.testing import WebsocketCommunicator

from events.party.roles import HOST_COMMANDS
from games.yankee.definition import DUTY_ACTIONS, SEAT_ACTIONS
from tests.live.clients import ConsumerEnded, next_output

MAX_FRAME = 4096
ACTION_TYPES = sorted(SEAT_ACTIONS | DUTY_ACTIONS | {"relay_exchange"})
FRAME_TYPES = ["hello", "act", "party", "resync", "ping"]


class Crashed(Exception):
    """The consumer raised: the socket died with a server error."""


class FuzzSocket:
    """One in-process socket to the real ASGI app (config.asgi: origin check, router,
    consumer, the test settings' Redis channel layer and PostgreSQL)."""

    def __init__(self, app, code: str, role: str | None = None, token: str | None = None):
        self.app = app
        self.code = code
        self.role = role
        self.token = token
        self.comm: WebsocketCommunicator | None = None
        self.closed = True
        self.opens = 0

    async def open(self) -> None:
        self.comm = WebsocketCommunicator(
            self.app, f"/ws/party/{self.code}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
        )
        connected, _ = await self.comm.connect(timeout=5)
        assert connected, "the handshake was refused"
        self.closed = False
        self.opens += 1
        if self.role is not None:
            await self.comm.send_to(
                text_data=json.dumps({"type": "hello", "role": self.role, "token": self.token, "re": "hi"})
            )
            kind, msg = await self.answer()
            assert kind == "reply" and msg["type"] == "snapshot", (kind, msg)

    async def ensure_open(self) -> None:
        if self.closed:
            await self.open()

    async def _output(self, timeout: float) -> dict:
        try:
            return await next_output(self.comm, timeout)
        except ConsumerEnded as ended:
            if ended.__cause__ is not None:
                raise Crashed(repr(ended.__cause__)) from ended.__cause__
            return {"type": "websocket.close", "code": "ended"}

    async def answer(self, timeout: float = 5.0) -> tuple[str, dict | int | str]:
        """The socket's answer to the frame just sent: ("reply", msg) for ok / error /
        snapshot / pong, ("close", code), ("crash", repr) or ("silent", None).
        Broadcasts (table, party, presence...) are skipped."""
        while True:
            try:
                out = await self._output(timeout)
            except Crashed as exc:
                self.closed = True
                return "crash", str(exc)
            except TimeoutError:
                return "silent", None
            if out["type"] == "websocket.close":
                self.closed = True
                return "close", out.get("code", 1000)
            if out["type"] != "websocket.send":
                continue
            msg = json.loads(out["text"])
            if msg.get("type") in ("ok", "error", "snapshot", "pong"):
                if msg.get("type") == "snapshot" and msg.get("re") is None:
                    continue  # a pushed snapshot (resubscribe), not an answer
                return "reply", msg

    async def exchange(self, frame: str | bytes) -> tuple[str, object]:
        await self.ensure_open()
        if isinstance(frame, bytes):
            await self.comm.send_to(bytes_data=frame)
        else:
            await self.comm.send_to(text_data=frame)
        kind, msg = await self.answer()
        if kind == "reply" and msg.get("type") == "error":
            # A close may follow an error (too_large, bad_secret): note it now.
            try:
                out = await self._output(0.02 if msg.get("code") in ("too_large", "bad_secret") else 0)
                if out["type"] == "websocket.close":
                    self.closed = True
                    return "close", out.get("code")
                self.comm.output_queue.put_nowait(out)  # not a close: keep it for later
            except (TimeoutError, Crashed):
                pass
        return kind, msg

    async def close(self) -> None:
        if self.comm is not None and not self.closed:
            try:
                await self.comm.disconnect(timeout=2)
            except Exception:
                pass
        self.closed = True


# --- the generator -------------------------------------------------------------------


class Hostile:
    """Hostile frames for one socket role. `ctx` holds what forgeries need: this
    party's and another party's table ids, the sender's seat, guest ids, tokens."""

    def __init__(self, rand: random.Random, ctx: dict):
        self.r = rand
        self.ctx = ctx

    # building blocks
    def weird_value(self, depth: int = 0):
        r = self.r
        choices = [
            lambda: None,
            lambda: r.choice([True, False]),
            lambda: r.randint(-(2**70), 2**70),
            lambda: r.choice([2**63, -(2**63) - 1, 10**30, -1, 0, 2**31]),
            lambda: r.uniform(-1e300, 1e300),
            lambda: self.weird_string(),
            lambda: [self.weird_value(depth + 1) for _ in range(r.randint(0, 3))] if depth < 3 else [],
            lambda: (
                {self.weird_string(8): self.weird_value(depth + 1) for _ in range(r.randint(0, 3))} if depth < 3 else {}
            ),
        ]
        return r.choice(choices)()

    def weird_string(self, n: int | None = None) -> str:
        r = self.r
        n = r.randint(0, 40) if n is None else n
        pools = [
            string.printable,
            "\x00\x01\x1b\x7f",
            "\u202e\u200b\ufeff\u0301",
            "ñ日本語😀🎁",
            "<>\"'&;{}$`\\",
            "\ud800\udfff",  # lone surrogates (json.dumps escapes them)
        ]
        return "".join(r.choice(r.choice(pools)) for _ in range(n))

    def wrong_for(self, key: str):
        """A value of the wrong type (or range) for a frame field."""
        r = self.r
        if key in ("re",):
            return r.choice([r.randint(-5, 5), [], {}, True, "x" * r.randint(65, 300), self.weird_value()])
        if key in ("version", "table", "seat", "card", "target", "gift", "extra", "guest", "number"):
            return r.choice(
                [
                    str(r.randint(0, 9)),
                    1.5,
                    True,
                    None,
                    [],
                    {},
                    2**64,
                    -(2**63) - 5,
                    10**40,
                    float("inf"),
                    self.weird_string(),
                    self.weird_value(),
                ]
            )
        return self.weird_value()

    def forged_action(self, sender: str) -> dict:
        """An action the sender may not take: someone else's seat, another table, a card
        that does not exist, a type the sender is not allowed."""
        r, c = self.r, self.ctx
        kind = r.choice(ACTION_TYPES)
        card = lambda: r.choice([r.randint(54, 10**6), -r.randint(1, 10**6), 2**40])  # noqa: E731
        fields = {
            "play": lambda: {"card": card(), "targets": [r.randint(-3, 12) for _ in range(r.randint(0, 2))]},
            "swipe": lambda: {"cards": [card(), card()], "target": r.randint(-3, 12)},
            "regroup": lambda: {"cards": [card() for _ in range(r.randint(1, 2))]},
            "vault": lambda: {"cards": [card(), card()], "gift": r.randint(0, 2000)},
            "react": lambda: {"card": card()},
            "trim": lambda: {"cards": [card() for _ in range(r.randint(1, 3))]},
            "timeout_pass": lambda: {"seat": r.choice([-1, 10, 99, 2**40])},
            "confirm_reveal": lambda: {},
            "draw_relay_seat": lambda: {},
            "relay_exchange": lambda: {"gift": {"id": r.randint(1, 30), "description": self.weird_string()}},
        }[kind]()
        action = {"type": kind, **fields}
        if kind in SEAT_ACTIONS and r.random() < 0.6:
            own = c.get("seat")
            action["seat"] = r.choice([s for s in range(-2, 12) if s != own])
        return action

    def frame(self, sender: str) -> tuple[str, str | bytes]:
        """(category, frame) — a frame that `sender` (anon, spectator, guest, captain,
        host) may not send."""
        r, c = self.r, self.ctx
        category = r.choice(
            [
                "not_json",
                "truncated",
                "oversized",
                "wrong_type",
                "deep_nesting",
                "huge_number",
                "unicode_nul",
                "forged_action",
                "foreign_table",
                "host_command",
                "forged_hello",
                "not_object",
                "binary",
                "unknown_type",
                "bad_re",
            ]
        )
        if category == "not_json":
            raw = "".join(chr(r.randint(1, 0xD7FF)) for _ in range(r.randint(1, 200)))
            return category, raw if not raw.lstrip().startswith(("{", "[", '"')) and not _is_json(raw) else "{" + raw
        if category == "truncated":
            full = json.dumps(
                {"type": "act", "re": "t", "action": {"type": "regroup", "cards": [1, 2]}, "table": c["table"]}
            )
            return category, full[: r.randint(1, len(full) - 1)]
        if category == "oversized":
            unit = r.choice(["a", "é", "日", "😀"])
            count = r.randint(MAX_FRAME // len(unit.encode()) + 1, MAX_FRAME + 2000)
            return category, json.dumps(
                {"type": "act", "re": "big", "action": {"type": "regroup", "pad": unit * count}}, ensure_ascii=False
            )
        if category == "deep_nesting":
            depth = r.randint(500, 2000)
            opener, closer = r.choice([("[", "]"), ('{"a":', "}")])
            inner = opener * depth + "1" + closer * depth
            if r.random() < 0.5:
                return category, inner
            return category, '{"type":"act","re":"deep","action":' + inner + "}"
        if category == "huge_number":
            big = r.choice(["1" * r.randint(300, 4000), "1e999", "-1e999", "9" * 20, "NaN", "Infinity"])
            field = r.choice(["version", "table", "re", "action"])
            return category, '{"type":"act","re":"n","action":{"type":"regroup","cards":[]},' + f'"{field}":{big}' + "}"
        if category == "unicode_nul":
            base = {"type": r.choice([*FRAME_TYPES, "act"]), "re": self.weird_string(r.randint(1, 64))}
            if base["type"] == "hello":
                base.update(role=r.choice(["guest", "host"]), token=self.weird_string(43))
            elif base["type"] == "party":
                base.update(command=self.weird_string(), name=self.weird_string())
            elif base["type"] in ("ping", "resync"):
                base["re"] = (
                    r.choice(["\x00", "a\x00b", "\ud800", "\x1b[2J", "\n"]) + base["re"][:40]
                )  # control/surrogate ids
            elif r.random() < 0.5:
                base["action"] = {"type": self.weird_string(), "cards": [self.weird_string()]}
            else:
                # a well-formed action whose id carries a NUL or a lone surrogate: the
                # id is stored with the action, so it must be refused before the DB
                base["re"] = r.choice(["\x00", "\ud800", "x\x00y", "\udfff\x00"])
                base["action"] = r.choice(
                    [{"type": "confirm_reveal"}, {"type": "react", "card": None}, {"type": "regroup", "cards": []}]
                )
                base["version"] = -1
            return category, json.dumps(base)
        if category == "wrong_type":
            template = r.choice(
                [
                    {
                        "type": "act",
                        "re": "w",
                        "table": c["table"],
                        "version": 1,
                        "action": {"type": "regroup", "cards": []},
                    },
                    {"type": "party", "re": "w", "command": "rename_guest", "guest": c["guest"], "name": "x"},
                    {"type": "hello", "re": "w", "role": "guest", "token": c["token"]},
                ]
            )
            key = r.choice(list(template))
            template[key] = self.wrong_for(key)
            if template.get("type") == "act" and isinstance(template.get("action"), dict):
                # keep the act forged even where the field change alone is harmless
                template["action"] = self.forged_action(sender)
            if template.get("type") == "hello" and key not in ("type", "re"):
                template["token"] = self.weird_string(43) if key != "token" else template["token"]
            if template.get("type") == "hello" and key == "re":
                template["token"] = self.weird_string(43)
            return category, json.dumps(template)
        if category == "forged_action":
            frame = {"type": "act", "re": f"f{r.randint(0, 10**9)}", "action": self.forged_action(sender)}
            if r.random() < 0.5:
                frame["table"] = r.choice([c["table"], c["foreign_table"], r.randint(-5, 10**6)])
            if r.random() < 0.3:
                frame["version"] = r.randint(-5, 10**6)
            return category, json.dumps(frame)
        if category == "foreign_table":
            action = r.choice(
                [
                    {"type": "confirm_reveal"},
                    {"type": "draw_relay_seat"},
                    {"type": "timeout_pass", "seat": 0},
                    {"type": "regroup", "cards": []},
                    {"type": "react", "card": None},
                ]
            )
            return category, json.dumps(
                {"type": "act", "re": f"x{r.randint(0, 10**9)}", "table": c["foreign_table"], "action": action}
            )
        if category == "host_command":
            command = r.choice(
                [*sorted(HOST_COMMANDS), "hand_over_seat", "confirm_delivery", "end", "__init__", "", "SEAT"]
            )
            args = {
                k: self.weird_value()
                for k in r.sample(["guest", "name", "number", "contributor", "description", "table"], r.randint(0, 3))
            }
            if sender == "host":
                # the host's own commands: only ones that cannot apply to a seated party
                command = r.choice(
                    [
                        "rename_guest",
                        "remove_guest",
                        "add_vault_gift",
                        "remove_vault_gift",
                        "seat",
                        "close_registration",
                        "reopen_registration",
                        "open_relay",
                        "run_relay",
                        "end",
                        "hand_over_seat",
                        "nope",
                    ]
                )
                if command == "hand_over_seat":
                    args["guest"] = r.choice([c["foreign_guest"], -1, 10**12, "1", None])
            return category, json.dumps({"type": "party", "re": f"h{r.randint(0, 10**9)}", "command": command, **args})
        if category == "forged_hello":
            token = r.choice(
                [
                    None,
                    "",
                    c["foreign_token"],
                    c["token"][:-1] + ("A" if c["token"][-1] != "A" else "B"),
                    c["token"] + "x",
                    c["token"].upper(),
                    " " + c["token"],
                    self.weird_string(43),
                    "a" * 43,
                    12345,
                    c["host_token"] if r.random() < 0.5 else c["foreign_host_token"],
                ]
            )
            role = r.choice(["guest", "host", "captain", "admin", None, 1, ["host"]])
            if token == c["host_token"]:
                role = "guest"  # the host's secret does not open a seat
            if role == "host" and token == c.get("token"):
                token = c["foreign_host_token"]
            return category, json.dumps(
                {"type": "hello", "re": f"hh{r.randint(0, 10**9)}", "role": role, "token": token}
            )
        if category == "not_object":
            return category, json.dumps(r.choice([[], [1, 2], "hello", 42, None, True, 1.5, [{"type": "ping"}]]))
        if category == "binary":
            return category, bytes(r.randint(0, 255) for _ in range(r.randint(1, 300)))
        if category == "unknown_type":
            t = r.choice(
                [
                    "Act",
                    "ACT",
                    "hello ",
                    "pong",
                    "snapshot",
                    "ok",
                    "error",
                    "table",
                    "deliver",
                    "resubscribe",
                    "",
                    self.weird_string(),
                ]
            )
            return category, json.dumps({"type": t, "re": "u", "action": {"type": "regroup", "cards": []}})
        # bad_re: never a string the server may accept as an id
        bad = r.choice([r.randint(-5, 5), [], {}, True, 1.5, "x" * r.randint(65, 300), ["a"], {"re": "a"}])
        return category, json.dumps({"type": r.choice(FRAME_TYPES), "re": bad})


def _is_json(raw: str) -> bool:
    try:
        json.loads(raw)
        return True
    except ValueError:
        return False


class HostileLobby(Hostile):
    """The host's own lobby commands (a party still in its lobby, where they can
    apply), each with at least one argument that is never valid."""

    BAD_IDS = [2**70, -(2**63) - 1, 10**30, -1, "1", None, 1.5, True, [], {}, "\x00"]
    BAD_TEXT = ["", "   ", "a\x00b", "\x00", "y" * 201, 5, None, [], {"a": 1}, "\ud800", "ok\udfffok", "\x01\x02"]
    BAD_NAME = [*BAD_TEXT, "x" * 41]

    def frame(self, sender: str = "host") -> tuple[str, str]:
        r, c = self.r, self.ctx
        command = r.choice(
            ["rename_guest", "remove_guest", "add_vault_gift", "remove_vault_gift", "set_captain", "hand_over_seat"]
        )
        if command == "rename_guest":
            args = r.choice(
                [
                    {"guest": r.choice([*self.BAD_IDS, c["foreign_guest"]]), "name": "Fine name"},
                    {"guest": c["lobby_guest"], "name": r.choice(self.BAD_NAME)},
                ]
            )
        elif command in ("remove_guest", "set_captain", "hand_over_seat"):
            args = {"guest": r.choice([*self.BAD_IDS, c["foreign_guest"]])}
        elif command == "add_vault_gift":
            args = r.choice(
                [
                    {"contributor": r.choice(self.BAD_NAME), "description": "a fine gift"},
                    {"contributor": "Fine", "description": r.choice(self.BAD_TEXT)},
                ]
            )
        else:
            args = {"number": r.choice([*self.BAD_IDS, 999, 0, "x", [1], {"n": 1}])}
        return "lobby_" + command, json.dumps(
            {"type": "party", "re": f"l{r.randint(0, 10**9)}", "command": command, **args}
        )
