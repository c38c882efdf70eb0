import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@tollgate/platform';
import { ChannelModelsLister } from './channel-test/channel-models-lister';
import { ChannelTester } from './channel-test/channel-tester';
import { composeUpstream, type RelayUpstream } from './composition';

/** The Nest token the RelayUpstream is provided under. */
export const RELAY_UPSTREAM = Symbol('tollgate:relay-upstream');

function channelTesterOf(upstream: RelayUpstream): ChannelTester {
  return upstream.channelTester;
}

function channelModelsListerOf(upstream: RelayUpstream): ChannelModelsLister {
  return upstream.channelModelsLister;
}

/**
 * The upstream side of the composition (composeUpstream), built from the configuration alone:
 * RelayRuntime hands it to the hot path, and ChannelTestController is injected with its tester and
 * model lister.
 */
export const relayUpstreamProviders: Provider[] = [
  { provide: RELAY_UPSTREAM, useFactory: composeUpstream, inject: [SERVICE_CONFIG] },
  { provide: ChannelTester, useFactory: channelTesterOf, inject: [RELAY_UPSTREAM] },
  { provide: ChannelModelsLister, useFactory: channelModelsListerOf, inject: [RELAY_UPSTREAM] },
];
