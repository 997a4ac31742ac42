# Blajer & Markiewicz Fig. 8 from the minimal form:
#   stickslip run blajer-2 --out blajer2.csv && gnuplot scripts/plot_blajer2_fig8.gp
# Panels: u = crank angular velocity, the driving torque tau = 6 sin 3t (Blajer2 defaults),
# and f1 = -lambda0, the x force of bearing O on the crank. The CSV holds NaN reactions while
# the mechanism sticks (they are indeterminate); awk turns those rows into line breaks.
set datafile separator ','
set terminal pngcairo size 900,900
set output 'blajer2_fig8.png'
set multiplot layout 3,1 title 'blajer-2, minimal form: u, tau, f1 (gaps: stiction, reactions indeterminate)'
set xlabel 't [s]'
set ylabel 'u [rad/s]'
plot 'blajer2.csv' using 1:'crank.omega' with lines notitle
set ylabel 'tau [N m]'
plot 'blajer2.csv' using 1:(6*sin(3*$1)) with lines notitle
set ylabel 'f1 [N]'
plot "< awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i == \"lambda0\") c = i} /^#/ {next} NR > 1 && $c ~ /nan/ {print \"\"; next} {print}' blajer2.csv" using 1:(-column('lambda0')) with lines notitle
unset multiplot
