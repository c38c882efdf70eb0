"""What the SDK scripts share: the run's settings from stdin, the forecast schema every structured-output
case asks for, and one JSON object of case results on stdout ({name: {"ok": summary} | {"error": ...}}),
the same shape e2e/sdk-conformance/cases.ts gives the Node SDKs' results."""

import json
import sys
from typing import Any, Callable, Dict, List, Literal

from pydantic import BaseModel

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather for a city",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}


class Forecast(BaseModel):
    """The structured answer asked for: as many kinds of JSON schema value as one small object holds."""

    city: str
    days: int
    sunny: bool
    unit: Literal["celsius", "fahrenheit"]
    hours: List[int]


def settings() -> Dict[str, Any]:
    return json.load(sys.stdin)


def error_summary(error: BaseException) -> Dict[str, Any]:
    """The SDK's own error class and the HTTP status it carries (each SDK names it differently), and
    the body's code and param where the SDK reads them (openai's: `code` is a string there, where
    google-genai's `code` is the status)."""
    status = getattr(error, "status_code", None)
    if status is None:
        status = getattr(error, "code", None)
    summary = {
        "type": type(error).__name__,
        "module": type(error).__module__.split(".")[0],
        "status": status if isinstance(status, int) else None,
        "message": str(error)[:500],
    }
    code = getattr(error, "code", None)
    if isinstance(code, str):
        summary["code"] = code
        param = getattr(error, "param", None)
        summary["param"] = param if isinstance(param, str) else None
    return summary


def run_cases(cases: Dict[str, Callable[[], Any]]) -> None:
    """Every case runs, whatever the others do, so one report shows everything that does not work."""
    results: Dict[str, Any] = {}
    for name, case in cases.items():
        try:
            results[name] = {"ok": case()}
        except Exception as error:  # noqa: BLE001 - an SDK's failure is the result being reported
            results[name] = {"error": error_summary(error)}
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")
