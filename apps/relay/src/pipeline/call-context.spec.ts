import { callLogIds, correlationHeadersOf } from './call-context';

describe('a call context carried explicitly', () => {
  it("gives log lines the request's id, and the flow's only when it is another", () => {
    expect(callLogIds({ requestId: 'r-1', correlationId: 'r-1' })).toEqual({ requestId: 'r-1' });
    expect(callLogIds({ requestId: 'r-1', correlationId: 'f-1' })).toEqual({
      requestId: 'r-1',
      correlationId: 'f-1',
    });
  });

  it('gives published events both ids as headers', () => {
    expect(correlationHeadersOf({ requestId: 'r-1', correlationId: 'r-1' })).toEqual({
      'x-request-id': 'r-1',
      'x-correlation-id': 'r-1',
    });
  });
});
