import { ChannelStatus, ErrorCode } from '@tollgate/contracts';
import { anAdmission } from '../../test/support/admission';
import { aChannel, aModelPrice, aToken, aUser } from '../../test/support/fixtures';
import type { Caller } from '../access/caller-access';
import { admitModel, type ModelAdmissionDeps } from './call-lifecycle';

const prices = ['acme-gpt', 'gpt-4o-mini'].map((model) => aModelPrice(model));

function deps(...channels: ReturnType<typeof aChannel>[]): ModelAdmissionDeps {
  return anAdmission(prices, channels);
}

const acmeChannel = aChannel({ id: 1, groups: ['acme'], models: ['acme-gpt'] });
const publicChannel = aChannel({ id: 2, groups: ['default'], models: ['gpt-4o-mini'] });
const callerIn = (group: string): Caller => ({ token: aToken(), user: aUser(7, { group }), group });

function refusal(admit: () => unknown): unknown {
  try {
    admit();
  } catch (error) {
    return error;
  }
  throw new Error('admitted');
}

describe('admitModel', () => {
  it("answers a model only another group's channels serve as it answers a made-up one: 404", () => {
    const admission = deps(acmeChannel, publicChannel);
    const outsider = callerIn('default');

    const privateModel = refusal(() => admitModel(admission, outsider, 'acme-gpt'));
    const madeUp = refusal(() => admitModel(admission, outsider, 'acme-gpt-made-up'));

    expect(privateModel).toMatchObject({ code: ErrorCode.ModelNotFound });
    expect((privateModel as Error).message).toBe(
      (madeUp as Error).message.replace('acme-gpt-made-up', 'acme-gpt'),
    );
  });

  it("admits a model the caller's group lists, even while all its channels are disabled (then 503)", () => {
    const disabled = { ...acmeChannel, status: ChannelStatus.AutoDisabled };

    expect(admitModel(deps(acmeChannel), callerIn('acme'), 'acme-gpt').model).toBe('acme-gpt');
    expect(admitModel(deps(disabled), callerIn('acme'), 'acme-gpt').model).toBe('acme-gpt');
  });
});
