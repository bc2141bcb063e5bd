/** The facade of src/core/jar: the new job's JAR as its Protobuf schema (what other folders use, and nothing else). */
export { extractJobJarSchema } from './extract-job-jar-schema';
export { type JobJarSchema } from './job-jar-types';
