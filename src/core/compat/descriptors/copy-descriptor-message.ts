/**
 * A shallow copy of a protobuf-es descriptor message: same prototype (proto2 defaults stay on the
 * prototype, so own properties still mean "set"), same own properties, sub-messages and lists shared.
 * Replaces protobuf-es `clone()` (a deep copy through reflection) where only top-level attributes of
 * the copy are replaced or deleted; callers must assign new lists instead of mutating shared ones.
 */
export function copyDescriptorMessage<T extends object>(message: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(message) as object | null) as T, message);
}
