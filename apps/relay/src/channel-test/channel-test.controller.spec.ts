import { Test } from '@nestjs/testing';
import { loadConfig, SERVICE_CONFIG } from '@tollgate/platform';
import { aChannel } from '../../test/support/fixtures';
import { relayConfigSchema } from '../config';
import { relayUpstreamProviders } from '../relay-upstream.providers';
import { ChannelTestController } from './channel-test.controller';

const config = loadConfig(relayConfigSchema, {
  TOLLGATE_ENCRYPTION_KEY: '00'.repeat(32),
  TOLLGATE_INTERNAL_TOKEN_SECRET: 's'.repeat(32),
});

async function aController(): Promise<ChannelTestController> {
  const module = await Test.createTestingModule({
    controllers: [ChannelTestController],
    providers: [{ provide: SERVICE_CONFIG, useValue: config }, ...relayUpstreamProviders],
  }).compile();
  return module.get(ChannelTestController);
}

describe('ChannelTestController', () => {
  // Admin tests channels whatever the hot path's state: the tester and the lister need only the
  // configuration, and Nest injects them (no runtime to ask, no "not started yet").
  it('tests a channel with the injected tester, without the hot path', async () => {
    const controller = await aController();
    const result = await controller.test({ channel: aChannel({ models: [], test_model: '' }) });
    expect(result).toMatchObject({
      success: false,
      model: '',
      message: 'The channel names no model to test',
    });
  });

  it('lists a channel’s models with the injected lister, without the hot path', async () => {
    const controller = await aController();
    const result = await controller.models({ channel: aChannel({ type: 999_999 }) });
    expect(result).toMatchObject({ success: false, models: [] });
  });

  it('refuses a request that is not a channel', async () => {
    const controller = await aController();
    await expect(controller.test({ channel: 'nope' })).rejects.toMatchObject({ status: 400 });
  });
});
