import { z } from 'zod';
import { RelayError } from '../errors/relay-error';
import { parseClientBody } from './request-validation';

const schema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })).optional(),
});

function refusalOf(body: unknown): RelayError {
  try {
    parseClientBody(schema, body);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('parseClientBody', () => {
  it('names the first problem and where it is', () => {
    expect(refusalOf({})).toMatchObject({ status: 400, message: 'Invalid request: model: Required' });
  });

  it("names the field at fault as OpenAI's param spells it", () => {
    expect(refusalOf({})).toMatchObject({ param: 'model' });
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'user', content: 7 },
      ],
    };
    expect(refusalOf(body)).toMatchObject({
      message: 'Invalid request: messages.1.content: Expected string, received number',
      param: 'messages[1].content',
    });
  });

  it('names no param when the body as a whole is wrong', () => {
    expect(refusalOf([])).toMatchObject({ param: undefined });
    expect(refusalOf('{"model":"gpt-4o-mini"}')).toMatchObject({ param: undefined });
  });

  it('tells a JSON body sent as text (curl -H "Content-Type: text/plain") how to send it', () => {
    expect(refusalOf('{"model":"gpt-4o-mini"}')).toMatchObject({
      status: 400,
      message: 'Invalid request: the body came as text: send it as JSON with Content-Type: application/json',
    });
  });
});
