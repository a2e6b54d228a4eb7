// Smash The Code: drops each pair upright in the emptiest column.
import java.io.BufferedReader;
import java.io.InputStreamReader;

class Player {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        while (true) {
            int[] free = new int[6];
            for (int i = 0; i < 34; i++) {
                String line = in.readLine();
                if (line == null) return;
                if (i >= 9 && i < 21)
                    for (int c = 0; c < 6 && c < line.length(); c++) if (line.charAt(c) == '.') free[c]++;
            }
            int best = 0;
            for (int c = 1; c < 6; c++) if (free[c] > free[best]) best = c;
            System.out.println(best + " 1");
            System.out.flush();
        }
    }
}
