from typing import Any, Generic, ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

class Task(Generic[_P, _R]):
    name: str
    ignore_result: bool
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    def delay(self, *args: _P.args, **kwargs: _P.kwargs) -> Any: ...  # an AsyncResult
    def apply_async(self, args: Any = None, kwargs: Any = None, **options: Any) -> Any: ...
    def apply(self, args: Any = None, kwargs: Any = None, **options: Any) -> Any: ...
