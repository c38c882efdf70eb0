import { z } from 'zod';
import { RelayError } from '../errors/relay-error';
import { parseClientBody } from './request-validation';

const schema = z.object({ model: z.string() });

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

  it('tells a JSON body sent as text (curl -H "Content-Type: text/plain") how to send it', () => {
    expect(refusalOf('{"model":"gpt-4o-mini"}')).toMatchObject({
      status: 400,
      message: 'Invalid request: the body came as text: send it as JSON with Content-Type: application/json',
    });
  });
});
