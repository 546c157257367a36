// The doctor feature's public surface: the facade imports only this file.
export { DOCTOR_CHECKS, type DoctorInput, type DoctorPorts, runDoctor } from './doctor.js';
export {
  type DoctorFinding,
  type DoctorReport,
  doctorReportToJson,
  type Severity,
} from './doctor-report.js';
