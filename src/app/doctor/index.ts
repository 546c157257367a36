// The doctor feature's public surface: the facade imports only this file.
export { DOCTOR_CHECKS, type DoctorInput, type DoctorPorts, OTHER_FINDINGS, runDoctor } from './doctor.js';
export {
  type DoctorCheckFacts,
  type DoctorFinding,
  type DoctorReport,
  doctorReportToJson,
  type Severity,
} from './doctor-report.js';
