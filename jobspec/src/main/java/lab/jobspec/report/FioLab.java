package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The lab's additions to a fio JSON job entry, under the key {@code "lab"}. fio has no such key;
 * tools that read fio JSON ignore it.
 *
 * @param engine {@code "jvm-engine"} or {@code "native-bridge"}: who ran the job
 * @param device the device kind or path the job ran against ({@code "null"}, {@code "ram"},
 *               {@code "/dev/zram0"})
 * @param clones how many clones ({@code numjobs} threads) this entry sums: 1 without
 *               {@code group_reporting}
 * @param cpus   the per-CPU slot (engine) or CPU (bridge) of each clone summed here
 * @param errors I/Os that completed with an error status
 * @param notes  free text: where the model simplifies, what was ignored
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FioLab(
        String engine,
        String device,
        int clones,
        List<Integer> cpus,
        long errors,
        List<String> notes) {
}
