# EnergyLab chart: alter-eco-design: answers on the ease5 scale
# Edit and run with: gnuplot alter-eco-design-ease5-diverging.gp
set encoding utf8
set title 'alter-eco-design: answers on the ease5 scale' noenhanced
set xlabel 'answers (% of respondents, neutral centred; n = 44)' noenhanced
set ylabel 'question' noenhanced
set key above box noenhanced
set grid lc rgb '#dddddd'
set border 3
set tics nomirror
set style line 1 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 2 lc rgb '#d1495b' pt 5 ps 0.7 lw 2
set style line 3 lc rgb '#2e933c' pt 9 ps 0.8 lw 2
set style line 4 lc rgb '#edae49' pt 11 ps 0.8 lw 2
set style line 5 lc rgb '#66468c' pt 13 ps 0.8 lw 2
set style line 6 lc rgb '#00798c' pt 15 ps 0.8 lw 2
set style line 7 lc rgb '#8c510a' pt 4 ps 0.8 lw 2
set style line 10 lc rgb '#333333' dt 1 lw 1.5
set style line 11 lc rgb '#777777' dt 2 lw 1.5
set style line 12 lc rgb '#b2182b' dt 4 lw 1.5
set style line 13 lc rgb '#2166ac' dt 5 lw 1.5
set style line 14 lc rgb '#8c510a' dt 3 lw 2
set style line 15 lc rgb '#66468c' dt 6 lw 2
set style line 20 lc rgb '#999999' dt 3 lw 1.5
set style line 40 lc rgb '#2e933c' pt 7 ps 0.7 lw 2
set style line 41 lc rgb '#66468c' pt 7 ps 0.7 lw 2
set style line 42 lc rgb '#edae49' pt 7 ps 0.7 lw 2
set style line 43 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 44 lc rgb '#d1495b' pt 7 ps 0.7 lw 2
set style line 45 lc rgb '#00798c' pt 7 ps 0.7 lw 2
set style line 46 lc rgb '#333333' pt 7 ps 0.7 lw 2
set style line 47 lc rgb '#8c510a' pt 7 ps 0.7 lw 2
set style line 48 lc rgb '#a6a6a6' pt 7 ps 0.7 lw 2
set linetype 30 lc rgb '#bbbbbb'
set linetype 31 lc rgb '#b2182b'
set linetype 32 lc rgb '#fddbc7'
set linetype 33 lc rgb '#d9d9d9'
set linetype 34 lc rgb '#67a9cf'
set linetype 35 lc rgb '#2166ac'
set ytics ('How easy and intuitive does the food scanning'."\n".'design look?' 1) noenhanced
set yrange [0.4:1.6]
set xrange [-100:130]
set xzeroaxis lt -1
set style fill solid 0.9 border -1
set lmargin 50
set key above horizontal box noenhanced
set terminal pngcairo size 900,560 enhanced font 'Sans,11'
set output 'alter-eco-design-ease5-diverging.png'
plot 'alter-eco-design-ease5-diverging.dat' using ($2 >= 1 ? ($3+$4)/2 : NaN):1:(($4-$3)/2):(0.35):($2 + 29) with boxxyerror lc variable notitle, \
     'alter-eco-design-ease5-diverging.dat' using ($2 == 0 ? ($3+$4)/2 : NaN):1:(($4-$3)/2):(0.35) with boxxyerror fill pattern 4 border lc rgb '#4d4d4d' lc rgb '#4d4d4d' title 'several options, split not published', \
     NaN with boxes lt 32 title 'Somewhat difficult', \
     NaN with boxes lt 33 title 'Neither easy nor difficult'
set terminal svg size 900,560 dynamic font 'Sans,11'
set output 'alter-eco-design-ease5-diverging.svg'
replot
unset output
