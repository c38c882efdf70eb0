"""The google-genai Python SDK at its defaults (only the base URL and api_key set; its default Gemini API
version is v1) through the gateway."""

from google import genai
from google.genai import types

from conformance import Forecast, run_cases, settings

run = settings()
model = run["models"]["gemini"]
embedding_model = run["models"]["gemini_embedding"]
client = genai.Client(api_key=run["api_key"], http_options=types.HttpOptions(base_url=run["origin"]))
COUNTED = "How many tokens are in this sentence?"
WEATHER = types.FunctionDeclaration(
    name="get_weather",
    description="Weather for a city",
    parameters=types.Schema(
        type=types.Type.OBJECT,
        properties={"city": types.Schema(type=types.Type.STRING)},
        required=["city"],
    ),
)


def generate():
    answer = client.models.generate_content(model=model, contents=COUNTED)
    return {
        "text": answer.text,
        "finish_reason": answer.candidates[0].finish_reason.name,
        "prompt_tokens": answer.usage_metadata.prompt_token_count,
        "output_tokens": answer.usage_metadata.candidates_token_count,
    }


def stream():
    text, pieces = "", 0
    for chunk in client.models.generate_content_stream(model=model, contents="Hello"):
        if chunk.text:
            text += chunk.text
            pieces += 1
    return {"text": text, "pieces": pieces}


def tools():
    answer = client.models.generate_content(
        model=model,
        contents="Weather in Paris?",
        config=types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=[WEATHER])],
            tool_config=types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.ANY)
            ),
        ),
    )
    call = answer.function_calls[0]
    return {"name": call.name, "args": dict(call.args)}


def structured():
    answer = client.models.generate_content(
        model=model,
        contents="Forecast for Paris",
        config=types.GenerateContentConfig(response_mime_type="application/json", response_schema=Forecast),
    )
    return {"parsed": answer.parsed.model_dump() if answer.parsed else None}


def embeddings():
    answer = client.models.embed_content(model=embedding_model, contents=["first text", "second text"])
    return {
        "count": len(answer.embeddings),
        "dimensions": [len(item.values) for item in answer.embeddings],
        "floats": all(isinstance(x, float) for item in answer.embeddings for x in item.values),
    }


def count_tokens():
    return {"total_tokens": client.models.count_tokens(model=model, contents=COUNTED).total_tokens}


def models_list():
    return {"names": [entry.name for entry in client.models.list()]}


def model_get():
    entry = client.models.get(model=model)
    return {"name": entry.name}


def wrong_key():
    # Held in a name: a client nothing refers to is closed (collected) before its request is sent.
    wrong = genai.Client(api_key=run["wrong_key"], http_options=types.HttpOptions(base_url=run["origin"]))
    wrong.models.generate_content(model=model, contents=COUNTED)
    return "answered"


run_cases(
    {
        "generate": generate,
        "stream": stream,
        "tools": tools,
        "structured": structured,
        "embeddings": embeddings,
        "count_tokens": count_tokens,
        "models": models_list,
        "model_get": model_get,
        "wrong_key": wrong_key,
    }
)
