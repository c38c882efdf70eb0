export {
  FAKE_UPSTREAM_PRICE,
  seedModelThroughAdmin,
  type AdminCall,
  type AdminModelSeed,
} from './admin-seed';
export {
  publishFakeUpstreamCatalogue,
  setBalanceThroughBilling,
  type BalanceSetting,
  type FakeUpstreamCatalogue,
} from './platform-seed';
