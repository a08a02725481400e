/** Prints ns per consumeCPU token as a lab pair run measures it once for all its forks. */
public class NptOnce {
    public static void main(String[] a) {
        System.out.println(lab.engine.work.CalibratedWork.measureForRun(5));
    }
}
