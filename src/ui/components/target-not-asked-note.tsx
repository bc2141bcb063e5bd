/** Said where the verdict shows when the library-line question was not asked: both lines give the same verdict (use-check.ts). */
export function TargetNotAskedNote() {
  return (
    <p className="muted small" data-testid="target-not-asked">
      Not asked which <span className="mono">flink-datastream-protobuf</span> line the new job runs: 0.x and 1.x give the same verdict.
    </p>
  );
}
