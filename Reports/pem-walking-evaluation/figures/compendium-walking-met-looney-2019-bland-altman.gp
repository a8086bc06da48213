# EnergyLab chart: Bland-Altman: looney-2019 against compendium-walking-met (n = 6)
# Edit and run with: gnuplot compendium-walking-met-looney-2019-bland-altman.gp
set encoding utf8
set title 'Bland-Altman: looney-2019 against compendium-walking-met (n = 6)' noenhanced
set xlabel 'mean of predicted and reference (met)' noenhanced
set ylabel 'predicted minus reference (met)' noenhanced
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
set offsets 0, graph 0.12, graph 0.06, 0
set terminal pngcairo size 900,560 enhanced font 'Sans,11'
set output 'compendium-walking-met-looney-2019-bland-altman.png'
plot 'compendium-walking-met-looney-2019-bland-altman.dat' index 0 using 1:2 with points ls 1 title 'pairs', \
     'compendium-walking-met-looney-2019-bland-altman.dat' index 0 using 1:2:3 with labels left offset char 0.6,0.5 font ',9' tc ls 1 notitle, \
     0 with lines ls 10 title 'zero difference', \
     0.22392114756412043 with lines ls 11 title 'bias 0.22', \
     -0.17991193113021234 with lines ls 12 title 'lower limit -0.18', \
     0.6277542262584532 with lines ls 13 title 'upper limit 0.63'
set terminal svg size 900,560 dynamic font 'Sans,11'
set output 'compendium-walking-met-looney-2019-bland-altman.svg'
replot
unset output
