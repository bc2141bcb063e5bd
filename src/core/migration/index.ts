/** The facade of src/core/migration: what other folders use, and nothing else (everything else stays inside the folder). */
export { type KryoMigrationOperator, planKryoMigration } from './plan-kryo-migration';
export { type KryoMigrationJob, generateKryoMigrationJob } from './generate-kryo-migration-job';
export { type ScanJob, type ScanJobState, generateScanJob } from './generate-scan-job';
