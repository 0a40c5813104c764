"""How long a guest takes: human pace (log-normal think times, late taps) or a closed loop."""

from __future__ import annotations

import math
import random


class Pace:
    """Every delay a person adds. Fast pace: none."""

    def __init__(self, kind: str, scale: float, rand: random.Random):
        self.human = kind == "human"
        self.scale = scale
        self.r = rand

    def seconds(self, x: float) -> float:
        """`x` seconds of a person's time at this pace (none at fast pace)."""
        return x * self.scale if self.human else 0.0

    def join_window(self) -> float:  # the QR moment: everyone within a few seconds
        return 5.0 if self.human else 1.0

    def think(self) -> float:
        return self.seconds(min(15.0, max(1.5, self.r.lognormvariate(math.log(4.0), 0.5))))

    def decide(self) -> float:  # a glance at the screen, then one of a few choices
        return self.seconds(min(10.0, max(1.0, self.r.lognormvariate(math.log(3.0), 0.5))))

    def react(self) -> float:
        if self.r.random() < 0.1:
            return self.seconds(self.r.uniform(5, 12))  # a late tap
        return self.seconds(self.r.uniform(1, 5))

    def trim(self) -> float:
        return self.seconds(self.r.uniform(1, 4))

    def duty(self) -> float:
        return self.seconds(self.r.uniform(2, 8))

    def walk(self) -> float:  # a relay carrier crosses the room to the next table
        return self.seconds(self.r.uniform(8, 25))

    def retry(self) -> float:
        return self.seconds(self.r.uniform(1, 3)) or 0.05
