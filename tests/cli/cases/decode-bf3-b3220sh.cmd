decode B3220SH
