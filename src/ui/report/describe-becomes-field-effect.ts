/**
 * What the saved bytes of an unknown field become under the new schema. After a restore only when the states
 * can be restored: under a NOT RESTORABLE verdict nothing is read after a restore that does not happen, so it
 * says what another path (a migration) would meet.
 */
export function describeBecomesFieldEffect(newName: string, restorable: boolean): string {
  const today = 'Today these bytes are unknown and carried along untouched.';
  return restorable
    ? `${today} After the restore the new parser reads them as ${newName}: the values get a ${newName} they never had, decoded from whatever those bytes once meant.`
    : `${today} These states cannot be restored as they are (see the verdict); if they are restored by another path (a migration), the new parser reads these bytes as ${newName}: the values get a ${newName} they never had.`;
}
