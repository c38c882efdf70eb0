import type { FuzzRoute } from './route-catalogue';

/**
 * Why a refusal's body is not in the route's protocol's error shape, or undefined when it is:
 * the new-api envelope `{success:false, message}` on /api, and on /v1 the body each provider's SDK
 * parses (libs/contracts/src/http/protocol-errors.ts).
 */
export function errorShapeProblem(
  dialect: FuzzRoute['dialect'],
  status: number,
  body: Buffer,
): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return `the body is not JSON: ${body.toString('utf8').slice(0, 200)}`;
  }
  const text = (value: unknown) => typeof value === 'string' && value.length > 0;
  const b = parsed as Record<string, unknown> & { error?: Record<string, unknown> };
  switch (dialect) {
    case 'api':
      return b.success === false && text(b.message) ? undefined : `not the envelope {success:false, message}`;
    case 'openai':
      return text(b.error?.message) && text(b.error?.type)
        ? undefined
        : 'not an OpenAI error {error:{message,type}}';
    case 'anthropic':
      return b.type === 'error' && text(b.error?.type) && text(b.error?.message)
        ? undefined
        : "not an Anthropic error {type:'error', error:{type,message}}";
    case 'gemini':
      return b.error?.code === status && text(b.error?.message) && text(b.error?.status)
        ? undefined
        : 'not a Gemini error {error:{code,message,status}}';
  }
}

/** What a refused request's body says, for the failure report. */
export function describeBody(body: Buffer): string {
  return body.toString('utf8').slice(0, 300);
}
