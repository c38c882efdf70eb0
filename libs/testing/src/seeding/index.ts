export {
  publishFakeUpstreamCatalogue,
  setBalanceThroughBilling,
  type BalanceSetting,
  type FakeUpstreamCatalogue,
} from './platform-seed';
