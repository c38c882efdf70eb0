"""The openai Python SDK at its defaults (only base_url and api_key set) through the gateway."""

import json

from openai import OpenAI

from conformance import WEATHER_TOOL, Forecast, run_cases, settings

run = settings()
models = run["models"]
client = OpenAI(base_url=f"{run['origin']}/v1", api_key=run["api_key"])
HELLO = [{"role": "user", "content": "Hello"}]


def chat():
    answer = client.chat.completions.create(model=models["openai_chat"], messages=HELLO)
    choice = answer.choices[0]
    return {
        "content": choice.message.content,
        "finish_reason": choice.finish_reason,
        "completion_tokens": answer.usage.completion_tokens,
    }


def stream():
    chunks = client.chat.completions.create(
        model=models["openai_chat"],
        messages=HELLO,
        stream=True,
        stream_options={"include_usage": True},
    )
    text, pieces, completion_tokens = "", 0, None
    for chunk in chunks:
        if chunk.choices and chunk.choices[0].delta.content:
            text += chunk.choices[0].delta.content
            pieces += 1
        if chunk.usage is not None:
            completion_tokens = chunk.usage.completion_tokens
    return {"text": text, "pieces": pieces, "completion_tokens": completion_tokens}


def tools():
    answer = client.chat.completions.create(
        model=models["openai_chat"],
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[{"type": "function", "function": WEATHER_TOOL}],
        tool_choice="required",
    )
    choice = answer.choices[0]
    call = choice.message.tool_calls[0]
    return {
        "finish_reason": choice.finish_reason,
        "name": call.function.name,
        "arguments": json.loads(call.function.arguments),
    }


def structured():
    answer = client.chat.completions.parse(
        model=models["openai_chat"],
        messages=[{"role": "user", "content": "Forecast for Paris"}],
        response_format=Forecast,
    )
    message = answer.choices[0].message
    return {"parsed": message.parsed.model_dump() if message.parsed else None, "refusal": message.refusal}


def embeddings():
    answer = client.embeddings.create(model=models["openai_embedding"], input=["first text", "second text"])
    return {
        "count": len(answer.data),
        "dimensions": [len(item.embedding) for item in answer.data],
        "floats": all(isinstance(x, float) for item in answer.data for x in item.embedding),
        "prompt_tokens": answer.usage.prompt_tokens,
    }


def models_list():
    return {"ids": [model.id for model in client.models.list()]}


def invalid_param():
    client.chat.completions.create(model=models["openai_chat"], messages=HELLO, max_tokens=0)
    return "answered"


def wrong_key():
    OpenAI(base_url=f"{run['origin']}/v1", api_key=run["wrong_key"]).chat.completions.create(
        model=models["openai_chat"], messages=HELLO
    )
    return "answered"


run_cases(
    {
        "chat": chat,
        "stream": stream,
        "tools": tools,
        "structured": structured,
        "embeddings": embeddings,
        "models": models_list,
        "invalid_param": invalid_param,
        "wrong_key": wrong_key,
    }
)
