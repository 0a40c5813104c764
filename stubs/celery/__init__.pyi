from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, overload

from celery.app.task import Task as Task

_P = ParamSpec("_P")
_R = TypeVar("_R")

class Celery:
    main: str | None
    conf: Any
    def __init__(self, main: str | None = None, **kwargs: Any) -> None: ...
    def config_from_object(
        self, obj: Any, silent: bool = False, force: bool = False, namespace: str | None = None
    ) -> None: ...
    def autodiscover_tasks(self, packages: Any = None, related_name: str = "tasks", force: bool = False) -> None: ...
    @overload
    def task(self, fun: Callable[_P, _R], /) -> Task[_P, _R]: ...
    @overload
    def task(self, *args: Any, **options: Any) -> Callable[[Callable[_P, _R]], Task[_P, _R]]: ...

@overload
def shared_task(fun: Callable[_P, _R], /) -> Task[_P, _R]: ...
@overload
def shared_task(**options: Any) -> Callable[[Callable[_P, _R]], Task[_P, _R]]: ...
