"""Every exception class ranklens defines derives from ``ranklens.errors.RanklensError`` (every
warning from ``RanklensWarning``), and keeps the built-in base users may catch."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import ranklens
from ranklens.errors import MetricError, RanklensError, RanklensWarning


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(ranklens.__path__, "ranklens."):
        if info.name.endswith("__main__") or info.name.startswith("ranklens.app.pages."):
            continue  # run the command, or draw a Streamlit page, on import
        if info.name.startswith(("ranklens.app", "ranklens.spark")):
            # Streamlit / pyspark: import them only where installed
            try:
                importlib.import_module(info.name)
            except ImportError:
                continue
        names.append(info.name)
    return names


def _defined_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if (issubclass(value, BaseException) and value.__module__.startswith("ranklens")):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_exception_of_ranklens_derives_from_the_one_base() -> None:
    classes = _defined_exceptions()
    names = {cls.__name__ for cls in classes}
    # the ones the issue counted, so the walk cannot silently find nothing
    assert {"InputError", "InsufficientSampleError", "UsageError", "StoreError",
            "ReportNotFound", "NoSharedQueries", "SharedFormatError", "SmallSampleWarning"} <= names
    outside = [cls.__qualname__ for cls in classes
               if not issubclass(cls, RanklensWarning if issubclass(cls, Warning)
                                 else RanklensError)]
    assert outside == []


@pytest.mark.parametrize(("path", "base"), [
    ("ranklens.io.errors.InputError", ValueError),
    ("ranklens.stats.errors.InsufficientSampleError", ValueError),
    ("ranklens.io.shared_queries.NoSharedQueries", ValueError),
    ("ranklens.share.links.SharedFormatError", ValueError),
    ("ranklens.store.errors.ReportNotFound", LookupError),
    ("ranklens.stats.errors.SmallSampleWarning", UserWarning),
])
def test_the_old_bases_still_catch(path: str, base: type[BaseException]) -> None:
    module, name = path.rsplit(".", 1)
    assert issubclass(getattr(importlib.import_module(module), name), base)


def test_a_bad_metric_name_is_a_ranklens_error_and_still_a_value_error() -> None:
    from ranklens.metrics.names import parse_metric

    with pytest.raises(MetricError, match="unknown metric"):
        parse_metric("nope@10")
    with pytest.raises(ValueError):
        parse_metric("ndcg@0")


def test_every_error_pickles_by_the_arguments_it_was_built_with() -> None:
    # one mechanism (RanklensError.__reduce__): an error whose __init__ turns its arguments
    # into a message (MissingQueries) came back broken before
    import pickle

    from ranklens.io.errors import InputError
    from ranklens.metrics.trec_ranking import MissingQueries
    from ranklens.stats.errors import InsufficientSampleError

    errors = [InputError("f.txt", "bad", line=3, hint="fix it"),
              InsufficientSampleError(1, 2, unit="gold queries"),
              MissingQueries(["q7", "q9"])]
    for error in errors:
        error.add_note("seen in a worker")
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error)
        assert (str(again), repr(again), again.args) == (str(error), repr(error), error.args)
        assert again.__notes__ == ["seen in a worker"]
    assert str(errors[2]) == "result qid 'q7' not found in qrels"
    assert pickle.loads(pickle.dumps(errors[2])).missing == ["q7", "q9"]
