/**
 * obj[key] = value, also for the key `__proto__`: a plain assignment would set the object's prototype
 * instead of a member, and the entry would be missing from the JSON (a map<string, …> may hold any key).
 */
export function setJsonMember(obj: { [key: string]: unknown }, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
