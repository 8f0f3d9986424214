decode --rules MBF2H332A-AEEOT
