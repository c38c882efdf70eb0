"""The anthropic Python SDK at its defaults (only base_url and api_key set) through the gateway."""

from anthropic import Anthropic

from conformance import WEATHER_TOOL, Forecast, run_cases, settings

run = settings()
model = run["models"]["anthropic"]
client = Anthropic(base_url=run["origin"], api_key=run["api_key"])
COUNTED = [{"role": "user", "content": "How many tokens are in this sentence?"}]
FORECAST_TOOL = {
    "name": "record_forecast",
    "description": "Record the forecast",
    "input_schema": Forecast.model_json_schema(),
}


def messages():
    message = client.messages.create(model=model, max_tokens=64, messages=COUNTED)
    return {
        "text": "".join(block.text for block in message.content if block.type == "text"),
        "stop_reason": message.stop_reason,
        "input_tokens": message.usage.input_tokens,
        "output_tokens": message.usage.output_tokens,
        # Read from the answer's request-id header, as Anthropic's API sends it.
        "request_id": bool(message._request_id),
    }


def stream():
    text, pieces = "", 0
    with client.messages.stream(model=model, max_tokens=64, messages=[{"role": "user", "content": "Hi"}]) as events:
        for piece in events.text_stream:
            text += piece
            pieces += 1
        final = events.get_final_message()
    return {"text": text, "pieces": pieces, "stop_reason": final.stop_reason}


def tools():
    message = client.messages.create(
        model=model,
        max_tokens=256,
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[
            {
                "name": WEATHER_TOOL["name"],
                "description": WEATHER_TOOL["description"],
                "input_schema": WEATHER_TOOL["parameters"],
            }
        ],
        tool_choice={"type": "any"},
    )
    call = next(block for block in message.content if block.type == "tool_use")
    return {"stop_reason": message.stop_reason, "name": call.name, "input": call.input}


def forced_tool():
    message = client.messages.create(
        model=model,
        max_tokens=256,
        messages=[{"role": "user", "content": "Forecast for Paris"}],
        tools=[FORECAST_TOOL],
        tool_choice={"type": "tool", "name": "record_forecast"},
    )
    call = next(block for block in message.content if block.type == "tool_use")
    return {"stop_reason": message.stop_reason, "name": call.name, "input": call.input}


def structured():
    message = client.messages.parse(
        model=model,
        max_tokens=256,
        messages=[{"role": "user", "content": "Forecast for Paris"}],
        output_format=Forecast,
    )
    return {"parsed": message.parsed_output.model_dump() if message.parsed_output else None}


def count_tokens():
    return {"input_tokens": client.messages.count_tokens(model=model, messages=COUNTED).input_tokens}


def models_list():
    listed = list(client.models.list())
    # Two a page: the SDK follows has_more and last_id (as after_id) to the end.
    paged = [entry.id for entry in client.models.list(limit=2)]
    return {
        "ids": [entry.id for entry in listed],
        "types": sorted({entry.type for entry in listed}),
        "paged": paged,
    }


def model_get():
    found = client.models.retrieve(model)
    return {"id": found.id, "type": found.type, "created_at": found.created_at.isoformat()}


def model_unknown():
    client.models.retrieve(f"{model}-unknown")
    return "answered"


def wrong_key():
    Anthropic(base_url=run["origin"], api_key=run["wrong_key"]).messages.create(
        model=model, max_tokens=16, messages=COUNTED
    )
    return "answered"


run_cases(
    {
        "messages": messages,
        "stream": stream,
        "tools": tools,
        "forced_tool": forced_tool,
        "structured": structured,
        "count_tokens": count_tokens,
        "models": models_list,
        "model_get": model_get,
        "model_unknown": model_unknown,
        "wrong_key": wrong_key,
    }
)
