from datetime import timedelta
from typing import Any

class BaseSchedule: ...

class schedule(BaseSchedule):
    def __init__(self, run_every: float | timedelta | None = None, relative: bool = False, **kwargs: Any) -> None: ...

class crontab(BaseSchedule):
    def __init__(
        self,
        minute: str | int = "*",
        hour: str | int = "*",
        day_of_week: str | int = "*",
        day_of_month: str | int = "*",
        month_of_year: str | int = "*",
        **kwargs: Any,
    ) -> None: ...
