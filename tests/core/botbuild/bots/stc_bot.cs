// Smash The Code: drops each pair upright in the emptiest column.
using System;

class Player {
    static void Main() {
        while (true) {
            int[] free = new int[6];
            for (int i = 0; i < 34; i++) {
                string line = Console.ReadLine();
                if (line == null) return;
                if (i >= 9 && i < 21)
                    for (int c = 0; c < 6 && c < line.Length; c++) if (line[c] == '.') free[c]++;
            }
            int best = 0;
            for (int c = 1; c < 6; c++) if (free[c] > free[best]) best = c;
            Console.WriteLine(best + " 1");
            Console.Out.Flush();
        }
    }
}
