// The service feature's public surface: other features and the facade import only this file.
export {
  checkServicePaths,
  installService,
  planService,
  type ServicePlan,
  type ServiceRequest,
  type ServiceState,
  serviceStatus,
  uninstallService,
} from './service.js';
