package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The lab's additions to a fio JSON job entry, under the key {@code "lab"}. fio has no such key;
 * tools that read fio JSON ignore it. The fields after {@code notes} are the native bridge's;
 * the engine leaves them null and they are not written.
 *
 * @param engine           {@code "jvm-engine"} or {@code "native-bridge"}: who ran the job
 * @param device           the device kind or path the job ran against ({@code "null"},
 *                         {@code "ram"}, {@code "/dev/zram0"})
 * @param clones           how many clones ({@code numjobs} threads) this entry sums: 1 without
 *                         {@code group_reporting}
 * @param cpus             the per-CPU slot (engine) or CPU (bridge) of each clone summed here
 * @param errors           I/Os that completed with an error status
 * @param notes            free text: where the model simplifies, what was ignored
 * @param target           bridge: the target's real path (symbolic links resolved)
 * @param targetSizeBytes  bridge: the target's size when the run started (BLKGETSIZE64, or the
 *                         file's size after fio-style extension)
 * @param logicalBlockSize bridge: BLKSSZGET of a block device, 512 for a regular file
 * @param processUsrNs     bridge: user CPU of the whole process over the run (getrusage
 *                         RUSAGE_SELF after minus before); the same in every entry of a report
 * @param processSysNs     bridge: system CPU of the whole process over the run, likewise
 * @param processCtx       bridge: voluntary + involuntary context switches of the process, likewise
 * @param verifyMismatches bridge, with {@code verify}: blocks read whose header or checksum did
 *                         not match (0 without verify); the first stops its clone (EILSEQ), as
 *                         fio stops the job, so each clone counts at most one
 * @param verifyUnwritten  bridge, with {@code verify}: blocks read that carried no header at
 *                         all (never written by the lab); not mismatches, but as fatal
 * @param startUs          microseconds from the run's start barrier to the start of the entry's
 *                         first job (later than 0 for a job that waited: {@code stonewall},
 *                         {@code wait_for}); set by {@link lab.jobspec.stats.RunReport}
 * @param endUs            microseconds from the run's start barrier to the end of the entry's
 *                         last clone; set likewise
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FioLab(
        String engine,
        String device,
        int clones,
        List<Integer> cpus,
        long errors,
        List<String> notes,
        String target,
        Long targetSizeBytes,
        Integer logicalBlockSize,
        Long processUsrNs,
        Long processSysNs,
        Long processCtx,
        Long verifyMismatches,
        Long verifyUnwritten,
        Long startUs,
        Long endUs) {

    /** The engine's entry: no target, process or verify figures. */
    public FioLab(String engine, String device, int clones, List<Integer> cpus, long errors, List<String> notes) {
        this(engine, device, clones, cpus, errors, notes, null, null, null, null, null, null, null, null);
    }

    /** Every field but the times, which {@link #withWindow} adds. */
    public FioLab(String engine, String device, int clones, List<Integer> cpus, long errors, List<String> notes,
                  String target, Long targetSizeBytes, Integer logicalBlockSize, Long processUsrNs,
                  Long processSysNs, Long processCtx, Long verifyMismatches, Long verifyUnwritten) {
        this(engine, device, clones, cpus, errors, notes, target, targetSizeBytes, logicalBlockSize, processUsrNs,
                processSysNs, processCtx, verifyMismatches, verifyUnwritten, null, null);
    }

    /** This entry with its start and end, in microseconds from the run's start barrier. */
    public FioLab withWindow(long startUs, long endUs) {
        return new FioLab(engine, device, clones, cpus, errors, notes, target, targetSizeBytes, logicalBlockSize,
                processUsrNs, processSysNs, processCtx, verifyMismatches, verifyUnwritten, startUs, endUs);
    }
}
