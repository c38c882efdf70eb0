/**
 * SPEC §2 documentation sections, in reading order. Prose lives in the docs namespace
 * (`<key>_title`, `<key>_p1`…); code is the same in both languages and takes the API base URL.
 * `group-limits` is the table of every group's rate limits as /api/status reports them now.
 */
export type DocBlock =
  | { kind: 'text'; key: string }
  | { kind: 'list'; keys: readonly string[] }
  | { kind: 'code'; language: string; code: (baseUrl: string) => string }
  | { kind: 'group-limits' };

export interface DocSection {
  id: string;
  /** Prefix of the section's keys in the docs namespace. */
  key: string;
  blocks: readonly DocBlock[];
}

const text = (key: string): DocBlock => ({ kind: 'text', key });
const list = (...keys: string[]): DocBlock => ({ kind: 'list', keys });
const code = (language: string, body: (baseUrl: string) => string): DocBlock => ({
  kind: 'code',
  language,
  code: body,
});

const groupLimitsTable: DocBlock = { kind: 'group-limits' };

const curlChat = (baseUrl: string) => `curl ${baseUrl}/chat/completions \\
  -H "Authorization: Bearer $TOLLGATE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "model": "gpt-4o-mini",
    "messages": [{"role": "user", "content": "Say hello in Russian"}]
  }'`;

const pythonChat = (baseUrl: string) => `# pip install openai
import os
from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key=os.environ["TOLLGATE_API_KEY"])
reply = client.chat.completions.create(
    model="gpt-4o-mini",
    messages=[{"role": "user", "content": "Say hello in Russian"}],
)
print(reply.choices[0].message.content)`;

const nodeChat = (baseUrl: string) => `// npm install openai
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: process.env.TOLLGATE_API_KEY });
const reply = await client.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello in Russian' }],
});
console.log(reply.choices[0].message.content);`;

export const DOC_SECTIONS: readonly DocSection[] = [
  {
    id: 'getting-started',
    key: 'intro',
    blocks: [
      text('intro_p1'),
      text('intro_p2'),
      list('intro_step1', 'intro_step2', 'intro_step3'),
      code('bash', curlChat),
      text('intro_p3'),
    ],
  },
  {
    id: 'principles',
    key: 'principles',
    blocks: [list('principles_l1', 'principles_l2', 'principles_l3', 'principles_l4', 'principles_l5')],
  },
  {
    id: 'faq',
    key: 'faq',
    blocks: [
      text('faq_q1'),
      text('faq_a1'),
      text('faq_q2'),
      text('faq_a2'),
      text('faq_q3'),
      text('faq_a3'),
      text('faq_q4'),
      text('faq_a4'),
    ],
  },
  {
    id: 'models-api',
    key: 'models',
    blocks: [
      text('models_p1'),
      code('bash', (baseUrl) => `curl ${baseUrl}/models -H "Authorization: Bearer $TOLLGATE_API_KEY"`),
      text('models_p2'),
      code(
        'python',
        (baseUrl) => `from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key="sk-...")
for model in client.models.list():
    print(model.id)`,
      ),
      text('models_aliases_p'),
    ],
  },
  {
    id: 'vscode',
    key: 'vscode',
    blocks: [
      text('vscode_p1'),
      list('vscode_continue1', 'vscode_continue2'),
      code(
        'yaml',
        (baseUrl) => `# ~/.continue/config.yaml
name: Tollgate
version: 1.0.0
schema: v1
models:
  - name: GPT-4o mini (Tollgate)
    provider: openai
    model: gpt-4o-mini
    apiBase: ${baseUrl}
    apiKey: sk-...
    roles: [chat, edit, apply]`,
      ),
      text('vscode_p2'),
      code(
        'json',
        (baseUrl) => `// Cline → API Provider: "OpenAI Compatible"
{
  "Base URL": "${baseUrl}",
  "API Key": "sk-...",
  "Model ID": "claude-sonnet-4-5"
}`,
      ),
    ],
  },
  {
    id: 'overview',
    key: 'overview',
    blocks: [
      text('overview_p1'),
      list('overview_l1', 'overview_l2', 'overview_l3', 'overview_l4', 'overview_l5', 'overview_l6'),
      code('python', pythonChat),
      code('javascript', nodeChat),
      text('overview_p2'),
      code(
        'bash',
        (baseUrl) => `# The Anthropic Messages API on the same key
curl ${baseUrl}/messages \\
  -H "x-api-key: $TOLLGATE_API_KEY" \\
  -H "anthropic-version: 2023-06-01" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [{"role": "user", "content": "Hi"}]}'`,
      ),
    ],
  },
  {
    id: 'streaming',
    key: 'streaming',
    blocks: [
      text('streaming_p1'),
      code(
        'python',
        (baseUrl) => `from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key="sk-...")
stream = client.chat.completions.create(
    model="gpt-4o-mini",
    messages=[{"role": "user", "content": "Write a haiku about the sea"}],
    stream=True,
)
for chunk in stream:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="", flush=True)`,
      ),
      text('streaming_p2'),
      code(
        'bash',
        (baseUrl) => `curl -N ${baseUrl}/chat/completions \\
  -H "Authorization: Bearer $TOLLGATE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "gpt-4o-mini", "stream": true, "messages": [{"role": "user", "content": "Count to five"}]}'`,
      ),
    ],
  },
  {
    id: 'speech',
    key: 'speech',
    blocks: [
      text('speech_p1'),
      code(
        'bash',
        (baseUrl) => `curl ${baseUrl}/audio/speech \\
  -H "Authorization: Bearer $TOLLGATE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "gpt-4o-mini-tts", "voice": "alloy", "input": "Привет! Это Tollgate."}' \\
  --output hello.mp3`,
      ),
      code(
        'python',
        (baseUrl) => `from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key="sk-...")
with client.audio.speech.with_streaming_response.create(
    model="gpt-4o-mini-tts", voice="alloy", input="Привет! Это Tollgate."
) as response:
    response.stream_to_file("hello.mp3")`,
      ),
      text('speech_p2'),
    ],
  },
  {
    id: 'limits',
    key: 'limits',
    blocks: [
      text('limits_p1'),
      list('limits_l1', 'limits_l2', 'limits_l3', 'limits_l4', 'limits_l5'),
      text('limits_p2'),
      text('limits_rate_p1'),
      list('limits_rate_rpm', 'limits_rate_tpm', 'limits_rate_concurrency'),
      text('limits_groups_p'),
      groupLimitsTable,
      text('limits_tokens_p'),
      text('limits_key_p'),
      text('limits_429_p'),
      code(
        'http',
        () => `HTTP/1.1 429 Too Many Requests
Retry-After: 3
Content-Type: application/json

{
  "error": {
    "message": "Rate limit reached on requests per minute (RPM) for this API key: limit 60. Please try again in 3s.",
    "type": "rate_limit_error",
    "param": null,
    "code": "rate_limit_exceeded"
  }
}`,
      ),
      text('limits_headers_p'),
      code(
        'http',
        () => `x-ratelimit-limit-requests: 60
x-ratelimit-remaining-requests: 59
x-ratelimit-reset-requests: 1s
x-ratelimit-limit-tokens: 200000
x-ratelimit-remaining-tokens: 196000
x-ratelimit-reset-tokens: 1.2s`,
      ),
      text('limits_headers_p2'),
    ],
  },
  {
    id: 'authentication',
    key: 'auth',
    blocks: [
      text('auth_p1'),
      code('http', () => 'Authorization: Bearer sk-...'),
      text('auth_p2'),
      code(
        'http',
        () =>
          'x-api-key: sk-...          # Anthropic Messages API\nx-goog-api-key: sk-...     # Gemini API (/v1beta)',
      ),
      text('auth_p3'),
    ],
  },
  {
    id: 'errors',
    key: 'errors',
    blocks: [
      text('errors_p1'),
      code(
        'json',
        () => `{
  "error": {
    "message": "Invalid API key",
    "type": "invalid_request_error",
    "code": "invalid_api_key"
  }
}`,
      ),
      list('errors_400', 'errors_401', 'errors_402', 'errors_403', 'errors_404', 'errors_429', 'errors_5xx'),
      text('errors_p2'),
    ],
  },
  {
    id: 'chatbox',
    key: 'chatbox',
    blocks: [
      text('chatbox_p1'),
      list('chatbox_l1', 'chatbox_l2', 'chatbox_l3', 'chatbox_l4'),
      code(
        'text',
        (baseUrl) =>
          `API Host: ${baseUrl.replace(/\/v1$/, '')}\nAPI Path: /v1/chat/completions\nAPI Key:  sk-...`,
      ),
    ],
  },
  {
    id: 'jan',
    key: 'jan',
    blocks: [
      text('jan_p1'),
      list('jan_l1', 'jan_l2', 'jan_l3', 'jan_l4'),
      code('text', (baseUrl) => `Chat Completions URL: ${baseUrl}/chat/completions\nAPI Key: sk-...`),
    ],
  },
  {
    id: 'sillytavern',
    key: 'sillytavern',
    blocks: [
      text('sillytavern_p1'),
      list('sillytavern_l1', 'sillytavern_l2', 'sillytavern_l3', 'sillytavern_l4'),
      code('text', (baseUrl) => `Custom Endpoint (Base URL): ${baseUrl}\nCustom API Key: sk-...`),
    ],
  },
];

export const DEFAULT_DOC_SECTION = DOC_SECTIONS[0].id;

export function findDocSection(id: string | undefined): DocSection | undefined {
  return DOC_SECTIONS.find((section) => section.id === (id ?? DEFAULT_DOC_SECTION));
}
