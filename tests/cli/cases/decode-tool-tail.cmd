decode --rules MCX623106AN-CDA_Ax
